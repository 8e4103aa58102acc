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
