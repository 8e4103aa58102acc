import Foundation

/// The test process's own temporary directory, `aupipe-tests-PID` under the system's temporary
/// directory: every scratch file and directory of the test targets goes under it, and it is
/// removed with everything in it when the process exits (a killed run leaves it behind, named by
/// its process id). Without it each run of the suites left some 500 directories in /tmp.
public enum TestScratch {
    /// Made on first use; removed at exit (`atexit`).
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("aupipe-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestScratch.root) }
        return url
    }()

    /// A fresh directory under `root`, `prefix-UUID`, left for the process's exit to remove.
    public static func directory(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A temporary directory for one test: made in `init` under `TestScratch.root` (`prefix` and a
/// UUID), removed with everything in it when the object goes (Swift Testing makes a suite
/// instance per test, so a suite holding one gets a fresh directory per test).
public final class ScratchDirectory {
    public let url: URL

    public init(_ prefix: String) throws {
        url = try TestScratch.directory(prefix)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A suite that keeps its files in a `ScratchDirectory` of its own (one per test, as Swift Testing
/// makes a suite instance per test) and names it `dir`.
public protocol ScratchSuite {
    var scratch: ScratchDirectory { get }
}

extension ScratchSuite {
    /// The test's own directory, removed with the suite instance.
    public var dir: URL { scratch.url }
}
