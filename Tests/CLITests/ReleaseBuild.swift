import Foundation
import Testing

/// One release aupipe for the install and package tests, made once per test process by
/// `scripts/install --prefix DIR` itself (so the scripts' own build is what is tested): a release
/// build links the Swift runtime statically, which a package must (the debug binary loads it
/// from the toolchain). It builds in `.build-tests-release` (`AUPIPE_BUILD_DIR`), apart from the
/// `.build` that `swift test` holds.
enum ReleaseBuild {
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// The prefix `scripts/install` installed the release build into, or why it failed.
    static let prefix: Result<URL, Failed> = {
        guard let dir = try? CLI.temporaryDirectory() else { return .failure(Failed(description: "no temporary directory")) }
        let prefix = dir.appendingPathComponent("release")
        let buildDir = CLI.packageRoot.appendingPathComponent(".build-tests-release").path
        guard let r = try? CLI.shell("scripts/install --prefix \(CLI.quote(prefix.path))", cwd: CLI.packageRoot,
                                     environment: ["AUPIPE_BUILD_DIR": buildDir]) else {
            return .failure(Failed(description: "scripts/install could not be started"))
        }
        guard r.status == 0 else {
            return .failure(Failed(description: "scripts/install --prefix \(prefix.path) failed (\(r.status)): \(r.stderr.suffix(2000))"))
        }
        return .success(prefix)
    }()

    /// The installed release binary.
    static func binary() throws -> String {
        try prefix.get().appendingPathComponent("bin/aupipe").path
    }
}
