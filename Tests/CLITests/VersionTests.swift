import AUPipeKit
import Foundation
import Testing

/// `aupipe --version` and `aupipe version`: the one version number, and the libraries in use
/// with the files loaded; lilv and ALSA reported missing, with their package, when absent.
@Suite struct VersionTests {
    /// The lines of `aupipe version` after the first, keyed by the library's first word.
    static func libraryLines(_ stdout: Data) -> [String: String] {
        var lines: [String: String] = [:]
        for line in String(decoding: stdout, as: UTF8.self).split(separator: "\n").dropFirst() {
            lines[String(line.prefix { $0 != " " && $0 != ":" })] = String(line)
        }
        return lines
    }

    @Test func versionPrintsTheOneNumber() throws {
        let r = try CLI.aupipe(["--version"])
        #expect(r.status == 0)
        #expect(String(decoding: r.stdout, as: UTF8.self) == "aupipe \(Version.number)\n")
        #expect(Version.number.wholeMatch(of: #/[0-9]+\.[0-9]+\.[0-9]+/#) != nil, "Version.number \(Version.number) is not MAJOR.MINOR.PATCH")
    }

    @Test func versionCommandNamesEachLibraryWithTheFileLoaded() throws {
        let r = try CLI.aupipe(["version"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.hasPrefix("aupipe \(Version.number)\n"))
        let lines = Self.libraryLines(r.stdout)
        #expect(Set(lines.keys) == ["libsoxr", "libebur128", "speexdsp", "libpng", "lilv", "ALSA"], "\(text)")
        #expect(lines["libpng"]?.wholeMatch(of: #/libpng 1\.[0-9]+\.[0-9]+: /.+/libpng16\.so\.[0-9.]+ \(linked: .*\)/#) != nil, "\(text)")
        // libsoxr's and libebur128's own calls give a version; each linked library a real file.
        #expect(lines["libsoxr"]?.wholeMatch(of: #/libsoxr [0-9]+\.[0-9]+\.[0-9]+: /.+/libsoxr\.so\.[0-9.]+ \(linked: .*\)/#) != nil, "\(text)")
        #expect(lines["libebur128"]?.wholeMatch(of: #/libebur128 [0-9]+\.[0-9]+\.[0-9]+: /.+/libebur128\.so\.[0-9.]+ \(linked: .*\)/#) != nil, "\(text)")
        #expect(lines["speexdsp"]?.contains(#/: /.+/libspeexdsp\.so\.[0-9.]+ \(linked/#) == true, "\(text)")
        for line in lines.values {
            guard let path = line.firstMatch(of: #/: (/[^ ]+) \(/#)?.output.1 else { continue }
            #expect(FileManager.default.fileExists(atPath: String(path)), "\(line): the file does not exist")
        }
    }

    @Test func speexdspVersionIsRecordedByTheBuildOrSaidNotToBe() throws {
        let lines = Self.libraryLines(try CLI.aupipe(["version"]).stdout)
        let line = try #require(lines["speexdsp"])
        // Debug builds of `swift build` do not record it; scripts/install's release build does.
        #expect(line.hasPrefix("speexdsp (version not recorded: built without scripts/install or scripts/package-deb)")
                || line.contains(#/^speexdsp [0-9.]+ \(pkg-config at build time\)/#), "\(line)")
    }

    @Test(.needs("lv2ls"))  // lilv-utils brings liblilv-0-0
    func lilvAndALSAFoundAreReportedWithTheirFiles() throws {
        let lines = Self.libraryLines(try CLI.aupipe(["version"]).stdout)
        #expect(lines["lilv"]?.contains(#/^lilv: /.+/liblilv-0\.so\.[0-9.]+ \(loaded at run time: lv2 plugins\)$/#) == true, "\(lines)")
        #expect(lines["ALSA"]?.contains(#/^ALSA [0-9.]+: /.+/libasound\.so\.[0-9.]+ \(loaded at run time/#) == true, "\(lines)")
    }

    @Test func lilvAndALSAMissingAreNamedWithTheirPackagesAndAreNoError() throws {
        let r = try CLI.shell("AUPIPE_LILV_LIBRARY=liblilv-missing.so.0 AUPIPE_LIBASOUND=libasound-missing.so.2 \"$AUPIPE\" version")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        let lines = Self.libraryLines(r.stdout)
        #expect(lines["lilv"] == "lilv: not found (liblilv-missing.so.0 not loaded; lv2 plugins need it: apt install liblilv-0-0)")
        #expect(lines["ALSA"] == "ALSA: not found (libasound-missing.so.2 not loaded; --capture, --monitor and --play need it: apt install libasound2)")
    }

    @Test func versionTakesNoArguments() throws {
        let r = try CLI.aupipe(["version", "libsoxr"])
        #expect(r.status == 64)
        #expect(r.stderr == "aupipe: version takes no arguments; 'aupipe version' prints the version and the libraries in use\n")
    }

    @Test func versionCommandCompletesAndTakesNothingAfter() throws {
        #expect(try CompletionTests.bash(["aupipe", "vers"]) == ["version"])
        #expect(try CompletionTests.bash(["aupipe", "version", ""]) == [])
    }

    @Test func changelogStartsWithThisVersion() throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let firstEntry = text.split(separator: "\n").first { $0.hasPrefix("## ") }
        #expect(firstEntry?.hasPrefix("## \(Version.number) ") == true, "CHANGELOG.md's first entry is '\(firstEntry ?? "none")', not \(Version.number)")
    }
}
