import Foundation
import Testing

/// Every command that prints to stdout fails with status 74 and one line when stdout takes
/// nothing (`> /dev/full`), as the chain does; none exits 0 having lost its output. A reader
/// that has gone away (EPIPE) still ends it quietly with status 0.
@Suite struct WriteErrorTests {
    static let commands = [
        "units", "info in.wav", "compare in.wav in.wav", "compare in.wav in.wav --json", "--check gain -3 < in.wav",
        "help", "--help", "--version", "version", "help gain", "help gen", "help compare", "gen sine duration=10f", "gain -3 < in.wav",
    ]

    @Test(arguments: commands)
    func aFullStdoutIsAnIOError(_ command: String) throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full on this system")
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=10f -o in.wav && \"$AUPIPE\" \(command) > /dev/full", cwd: d)
        #expect(r.status == 74, "aupipe \(command) > /dev/full: status \(r.status), stderr: \(r.stderr)")
        #expect(r.stderr == "aupipe: cannot write stdout: No space left on device\n", "aupipe \(command) > /dev/full: \(r.stderr)")
        // The reader (`true`) has exited before aupipe writes.
        let closed = try CLI.shell("(sleep 0.3; \"$AUPIPE\" \(command); echo \"status=$?\" >&2) | true", cwd: d)
        #expect(closed.stderr == "status=0\n", "aupipe \(command) | true: \(closed.stderr)")
    }
}
