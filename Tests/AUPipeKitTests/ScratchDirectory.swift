import Foundation

/// A temporary directory for one test: made in `init` under the system's temporary directory
/// (`prefix` and a UUID), removed with everything in it when the object goes (Swift Testing
/// makes a suite instance per test, so a suite holding one gets a fresh directory per test).
final class ScratchDirectory {
    let url: URL

    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A suite that keeps its files in a `ScratchDirectory` of its own (one per test, as Swift Testing
/// makes a suite instance per test) and names it `dir`.
protocol ScratchSuite {
    var scratch: ScratchDirectory { get }
}

extension ScratchSuite {
    /// The test's own directory, removed with the suite instance.
    var dir: URL { scratch.url }
}
