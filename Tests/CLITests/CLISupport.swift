import Foundation
import TestScratch
import Testing

/// Helpers for running the built `aupipe` binary, and peers like sox and ffmpeg, through real pipes.
enum CLI {
    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `aupipe` binary that `swift test` built next to the test bundle.
    static let binary: String = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("aupipe").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/aupipe").path
    }()

    /// Committed inputs and expected outputs of the golden pipelines.
    static let goldenDirectory = packageRoot.appendingPathComponent("Tests/CLITests/Golden")

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// Runs a shell command line (bash, with `pipefail`) with `$AUPIPE` set to the binary, and
    /// `stdin` as its input. Returns its status, stdout and stderr.
    @discardableResult
    static func shell(_ script: String, stdin: Data = Data(), cwd: URL? = nil, environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-o", "pipefail", "-c", script]
        var env = ProcessInfo.processInfo.environment
        env["AUPIPE"] = binary
        env["XDG_CACHE_HOME"] = cacheDirectory  // aupipe's LV2 index: never the user's
        for (k, v) in extra { env[k] = v }
        process.environment = env
        if let cwd { process.currentDirectoryURL = cwd }
        let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        // Feed stdin and drain both outputs concurrently so that no pipe fills up and stalls.
        // A command may exit without reading all of stdin (`aupipe info`, a usage error): block
        // SIGPIPE in this thread only (children keep the default) and take EPIPE as the end.
        let writer = Thread {
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            if (try? inPipe.fileHandleForWriting.write(contentsOf: stdin)) == nil {
                var none = timespec()
                _ = sigtimedwait(&pipeSignal, nil, &none)  // consume the pending SIGPIPE
            }
            try? inPipe.fileHandleForWriting.close()
        }
        writer.start()
        let errBox = DataBox()
        let errReader = Thread { errBox.set(errPipe.fileHandleForReading.readDataToEndOfFile()) }
        errReader.start()
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while errReader.isExecuting || !errReader.isFinished { usleep(1000) }
        return Result(status: process.terminationStatus, stdout: out, stderr: String(decoding: errBox.get(), as: UTF8.self))
    }

    /// `XDG_CACHE_HOME` of every command run: a directory of this test process.
    static let cacheDirectory = TestScratch.root.appendingPathComponent("aupipe-cache-\(getpid())").path

    /// Runs aupipe with `arguments` (no shell), feeding `stdin`.
    @discardableResult
    static func aupipe(_ arguments: [String], stdin: Data = Data()) throws -> Result {
        try shell("exec \"$AUPIPE\" " + arguments.map(quote).joined(separator: " "), stdin: stdin)
    }

    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Whether `tool` is on PATH. Under CI (`CI=true`) a missing peer fails the test instead of
    /// skipping it: the test command installs them, so absence is a setup bug.
    static func has(_ tool: String) -> Bool {
        let found = (try? shell("command -v \(tool)").status) == 0
        if !found && ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("\(tool) is not installed, but CI must have it (scripts/install-deps test installs it)")
        }
        return found
    }

    /// A program or file a test needs from the system (`scripts/install-deps test` installs them).
    enum Peer: Sendable, CustomStringConvertible {
        /// A program on PATH.
        case tool(String)
        /// A file, such as a plugin package's library.
        case file(String)

        var isPresent: Bool {
            switch self {
            case .tool(let name): (try? CLI.shell("command -v \(CLI.quote(name))").status) == 0
            case .file(let path): FileManager.default.fileExists(atPath: path)
            }
        }

        var description: String {
            switch self {
            case .tool(let name): name
            case .file(let path): path
            }
        }
    }

    /// A peer missing under CI: the test fails with this, naming it, instead of being skipped.
    struct MissingPeer: Error, CustomStringConvertible {
        var peers: [Peer]
        var description: String {
            "\(peers.map(\.description).joined(separator: ", ")) missing, but CI must have it (scripts/install-deps test installs it)"
        }
    }

    /// Whether a test that needs `peers` runs: true when all are present; when one is missing,
    /// false (the test shows as skipped) or, under CI (`environment["CI"] == "true"`), a thrown
    /// `MissingPeer` (the test fails), so that CI never skips one.
    static func runs(needing peers: [Peer], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Bool {
        let missing = peers.filter { !$0.isPresent }
        guard !missing.isEmpty else { return true }
        if environment["CI"] == "true" { throw MissingPeer(peers: missing) }
        return false
    }

    /// Compiles `Tests/CLITests/Support/SOURCE` into a shared library `name` in a temporary
    /// directory of this test process (with gcc, clang or cc); its path, or nil when it would
    /// not compile.
    static func sharedLibrary(_ source: String, named name: String, flags: String, libraries: String) -> String? {
        let dir = TestScratch.root.appendingPathComponent("aupipe-lib-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let out = dir.appendingPathComponent(name).path
        let path = packageRoot.appendingPathComponent("Tests/CLITests/Support/\(source)").path
        let r = try? shell("cc=$(command -v gcc || command -v clang || command -v cc) && \"$cc\" \(flags) -shared -fPIC -o '\(out)' '\(path)' \(libraries)")
        return r?.status == 0 ? out : nil
    }

    /// A fresh temporary directory for one test.
    static func temporaryDirectory() throws -> URL {
        try TestScratch.directory("aupipe-test")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where every program in `tools` is on PATH; elsewhere it shows as
    /// skipped. Under CI a missing one fails the test (see `CLI.runs(needing:)`).
    static func needs(_ tools: String...) -> Self {
        let peers = tools.map { CLI.Peer.tool($0) }
        return .enabled("needs \(tools.joined(separator: ", "))") { try CLI.runs(needing: peers) }
    }

    /// Runs the test only where every file in `paths` exists (a plugin package's library), as `needs`.
    static func needsFile(_ paths: String...) -> Self {
        .enabled("needs \(paths.joined(separator: ", "))") { try CLI.runs(needing: paths.map { .file($0) }) }
    }
}

/// Data handed from a reader thread to the caller (Swift 6 forbids mutating a captured var there).
final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
