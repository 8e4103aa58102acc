import Foundation
import Testing

/// A test that needs a peer (sox, ffmpeg, a plugin package...) shows as skipped where it is
/// missing, and fails under CI, which installs every peer: no test passes without asserting.
@Suite struct PeerTraitTests {
    @Test func aMissingPeerSkipsOutsideCIAndFailsUnderIt() throws {
        let missing: [CLI.Peer] = [.tool("aupipe-no-such-peer"), .file("/nonexistent/aupipe/amp.so")]
        #expect(try CLI.runs(needing: missing, environment: [:]) == false)
        #expect(throws: CLI.MissingPeer.self) { try CLI.runs(needing: missing, environment: ["CI": "true"]) }
        #expect(try CLI.runs(needing: [.tool("sh"), .file("/bin/sh")], environment: ["CI": "true"]))
    }

    /// No test returns early when a peer is missing (it would pass without asserting anything):
    /// they name their peers with `.needs` or `.needsFile` instead.
    @Test func noTestReturnsEarlyWithoutItsPeer() throws {
        let tests = CLI.packageRoot.appendingPathComponent("Tests")
        let files = try #require(FileManager.default.enumerator(atPath: tests.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        let early = try Regex(#"guard .*(CLI\.has|hasDebianPlugin)\(.*else \{ return"#)
        for file in files {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(early) {
                Issue.record("Tests/\(file):\(n + 1) returns early without its peer: \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
    }
}
