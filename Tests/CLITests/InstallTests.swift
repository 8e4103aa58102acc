import AUPipeKit
import Foundation
import Testing

/// `scripts/install`: a release build installed with its manual and completions, that runs,
/// reads as a manual, completes in bash, and that `--uninstall` takes away to the last file
/// and directory it made.
@Suite struct InstallTests {
    /// Every path under `dir`, relative to it, sorted.
    static func tree(_ dir: URL) -> [String] {
        let items = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
        return items.sorted()
    }

    static func install(_ arguments: String) throws -> CLI.Result {
        try CLI.shell("scripts/install \(arguments)", cwd: CLI.packageRoot)
    }

    @Test func theScriptsReleaseBuildRunsWithTheSwiftRuntimeInsideAndSpeexdspsVersion() throws {
        let aupipe = try ReleaseBuild.binary()
        let r = try CLI.shell("""
            \(CLI.quote(aupipe)) gen sine 1000 duration=0.1 | \(CLI.quote(aupipe)) gain -6 -t raw | wc -c
            """)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "9600")
        let libraries = try CLI.shell("ldd \(CLI.quote(aupipe))")
        #expect(libraries.status == 0)
        #expect(!String(decoding: libraries.stdout, as: UTF8.self).contains("libswift"), "the release build loads the Swift runtime as a shared library")
        let version = try CLI.shell("pkg-config --modversion speexdsp; \(CLI.quote(aupipe)) version")
        let lines = String(decoding: version.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        let speexdsp = try #require(lines.first)
        #expect(lines.contains { $0.hasPrefix("speexdsp \(speexdsp) (pkg-config at build time): /") }, "\(lines)")
    }

    @Test(.needs("man"))
    func installsWhatRunsReadsAndCompletesAndUninstallLeavesTheDirectoryEmpty() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Self.install("--prefix \(CLI.quote(dir.path)) --binary \(CLI.quote(CLI.binary))")
        #expect(r.status == 0, "\(r.stderr)")
        let files = ["bin/aupipe", "share/man/man1/aupipe.1", "share/bash-completion/completions/aupipe",
                     "share/zsh/site-functions/_aupipe", "share/fish/vendor_completions.d/aupipe.fish",
                     "share/doc/aupipe/LICENSE", "share/doc/aupipe/THIRD-PARTY-NOTICES", "share/doc/aupipe/CHANGELOG.md",
                     "share/aupipe/install-manifest"]
        for file in files {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(file).path), "\(file) was not installed")
        }
        let manifest = try String(contentsOf: dir.appendingPathComponent("share/aupipe/install-manifest"), encoding: .utf8)
        #expect(Set(manifest.split(separator: "\n").filter { $0.hasPrefix("file ") }.map { String($0.dropFirst(5)) }) == Set(files))

        // The installed aupipe runs, its manual reads, and its bash completion completes a unit.
        let run = try CLI.shell("""
            PATH=\(CLI.quote(dir.path))/bin:$PATH
            aupipe gen sine 440 duration=0.1 | aupipe resample 16000 -t raw | wc -c
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(String(decoding: run.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "3200")
        let man = try CLI.shell("MANWIDTH=100 man -P cat -l \(CLI.quote(dir.path))/share/man/man1/aupipe.1")
        #expect(man.status == 0, "\(man.stderr)")
        let page = String(decoding: man.stdout, as: UTF8.self)
        #expect(page.contains("SYNOPSIS") && page.contains("aupipe version"), "\(page.prefix(400))")
        let completion = try CLI.shell("""
            PATH=\(CLI.quote(dir.path))/bin:$PATH
            source \(CLI.quote(dir.path))/share/bash-completion/completions/aupipe || exit 1
            COMP_WORDS=(aupipe gain -3 : res); COMP_CWORD=4; unset COMP_LINE
            _aupipe; printf '%s\\n' "${COMPREPLY[@]}"
            """)
        #expect(completion.status == 0, "\(completion.stderr)")
        #expect(String(decoding: completion.stdout, as: UTF8.self) == "resample\n")
        for shell in ["zsh", "fish"] {
            let path = shell == "zsh" ? "share/zsh/site-functions/_aupipe" : "share/fish/vendor_completions.d/aupipe.fish"
            let installed = try Data(contentsOf: dir.appendingPathComponent(path))
            #expect(installed == (try CLI.aupipe(["completions", shell]).stdout), "\(path) is not 'aupipe completions \(shell)'")
        }

        let gone = try Self.install("--uninstall --prefix \(CLI.quote(dir.path))")
        #expect(gone.status == 0, "\(gone.stderr)")
        #expect(Self.tree(dir) == [], "left behind: \(Self.tree(dir))")
    }

    @Test func installingTwiceOverAnotherTreeRemovesOnlyItsOwn() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let man1 = dir.appendingPathComponent("share/man/man1")
        try FileManager.default.createDirectory(at: man1, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try Data("other".utf8).write(to: man1.appendingPathComponent("other.1"))
        for _ in 0..<2 {
            let r = try Self.install("--prefix \(CLI.quote(dir.path)) --binary \(CLI.quote(CLI.binary))")
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try Self.install("--uninstall --prefix \(CLI.quote(dir.path))").status == 0)
        #expect(Self.tree(dir) == ["bin", "share", "share/man", "share/man/man1", "share/man/man1/other.1"])
    }

    @Test func destdirStagesThePrefixAndUninstallsFromThere() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Self.install("--destdir \(CLI.quote(dir.path)) --prefix /usr --binary \(CLI.quote(CLI.binary))")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("usr/bin/aupipe").path))
        let manifest = try String(contentsOf: dir.appendingPathComponent("usr/share/aupipe/install-manifest"), encoding: .utf8)
        #expect(manifest.contains("under /usr;"), "the manifest does not name the prefix: \(manifest)")
        #expect(try Self.install("--uninstall --destdir \(CLI.quote(dir.path)) --prefix /usr").status == 0)
        #expect(Self.tree(dir) == ["usr"])
    }

    @Test func badArgumentsFailWithOneLineAndTheirStatus() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases: [(String, Int32, String)] = [
            ("--prefx /tmp", 64, "install: unknown argument '--prefx'"),
            ("--prefix relative/dir", 64, "install: --prefix relative/dir is not an absolute path"),
            ("--prefix", 64, "install: --prefix needs a value"),
            ("--uninstall --prefix \(CLI.quote(dir.path))", 66, "install: no \(dir.path)/share/aupipe/install-manifest"),
            ("--prefix \(CLI.quote(dir.path)) --binary /nonexistent/aupipe", 66, "install: /nonexistent/aupipe is not an executable aupipe"),
            ("--prefix /proc/aupipe-test --binary \(CLI.quote(CLI.binary))", 73, "install: cannot create /proc/aupipe-test"),
        ]
        for (arguments, status, start) in cases {
            let r = try Self.install(arguments)
            #expect(r.status == status, "scripts/install \(arguments): \(r.status) \(r.stderr)")
            #expect(r.stderr.hasPrefix(start) && r.stderr.filter { $0 == "\n" }.count == 1, "scripts/install \(arguments): \(r.stderr)")
        }
        #expect(Self.tree(dir) == [])
    }
}
