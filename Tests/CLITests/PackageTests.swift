import AUPipeKit
import Foundation
import Testing

/// `scripts/package-deb`: a Debian package of the release build that lintian passes, that holds
/// what the README lists, whose `Depends:` cover every shared library the binary loads, and
/// that apt would install.
@Suite(.needs("dpkg-deb", "dpkg-shlibdeps", "strip", "readelf"))
struct PackageTests {
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// The package, built once per test process from `ReleaseBuild`'s binary.
    static let package: Result<URL, Failed> = {
        let binary: String
        do { binary = try ReleaseBuild.binary() } catch { return .failure(Failed(description: "\(error)")) }
        guard let dir = try? CLI.temporaryDirectory(),
              let r = try? CLI.shell("scripts/package-deb --output \(CLI.quote(dir.path)) --binary \(CLI.quote(binary))", cwd: CLI.packageRoot) else {
            return .failure(Failed(description: "scripts/package-deb could not be started"))
        }
        guard r.status == 0 else { return .failure(Failed(description: "scripts/package-deb failed (\(r.status)): \(r.stderr)")) }
        return .success(URL(fileURLWithPath: String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    }()

    static func deb() throws -> String { try package.get().path }

    static func field(_ name: String) throws -> String {
        let r = try CLI.shell("dpkg-deb -f \(CLI.quote(try deb())) \(name)")
        return String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The package names of a relationship field: `libc6 (>= 2.34), a | b` gives libc6, a, b.
    static func packageNames(_ field: String) -> Set<String> {
        Set(field.split(whereSeparator: { $0 == "," || $0 == "|" }).compactMap { item in
            item.split(separator: " ").first.map { String($0.split(separator: ":").first!) }
        })
    }

    @Test func isNamedAfterTheVersionAndArchitecture() throws {
        let arch = String(decoding: try CLI.shell("dpkg --print-architecture").stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(URL(fileURLWithPath: try Self.deb()).lastPathComponent == "aupipe_\(Version.number)_\(arch).deb")
        #expect(try Self.field("Version") == Version.number)
        #expect(try Self.field("Package") == "aupipe")
        #expect(Self.packageNames(try Self.field("Recommends")) == ["liblilv-0-0", "libasound2"])
        #expect(Self.packageNames(try Self.field("Depends")).isSuperset(of: ["libspeexdsp1", "libsoxr0", "libebur128-1", "libc6"]))
    }

    @Test(.needs("lintian"))
    func lintianFindsNoError() throws {
        let r = try CLI.shell("lintian \(CLI.quote(try Self.deb())) 2>&1")
        let report = String(decoding: r.stdout, as: UTF8.self)
        #expect(!report.split(separator: "\n").contains { $0.hasPrefix("E:") }, "\(report)")
        #expect(r.status == 0, "lintian exited \(r.status): \(report)")
    }

    @Test func holdsWhatTheReadmeSays() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let listed = try #require(readme.components(separatedBy: "The package holds:\n\n```\n").dropFirst().first?
            .components(separatedBy: "\n```").first, "README.md has no 'The package holds:' block")
        let r = try CLI.shell("dpkg-deb --contents \(CLI.quote(try Self.deb()))")
        #expect(r.status == 0, "\(r.stderr)")
        // Regular files only (`-rw-r--r-- root/root 1234 date time ./usr/...`), without the leading dot.
        let files = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("-") }
            .compactMap { $0.split(separator: " ").last.map { String($0.dropFirst()) } }
        #expect(Set(files) == Set(listed.split(separator: "\n").map(String.init)), "package: \(files.sorted())")
        let owners = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").map { $0.split(separator: " ")[1] }
        #expect(owners.allSatisfy { $0 == "root/root" }, "files not owned by root: \(owners)")
    }

    @Test func manualAndCompletionsAreThePrograms() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.shell("dpkg-deb -x \(CLI.quote(try Self.deb())) \(CLI.quote(dir.path))").status == 0)
        let man = try CLI.shell("gzip -dc \(CLI.quote(dir.path))/usr/share/man/man1/aupipe.1.gz")
        #expect(man.stdout == (try Data(contentsOf: CLI.packageRoot.appendingPathComponent("man/aupipe.1"))))
        let zsh = try Data(contentsOf: dir.appendingPathComponent("usr/share/zsh/vendor-completions/_aupipe"))
        #expect(zsh == (try CLI.aupipe(["completions", "zsh"]).stdout))
        let copyright = try String(contentsOf: dir.appendingPathComponent("usr/share/doc/aupipe/copyright"), encoding: .utf8)
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        #expect(copyright.contains("\nLicense: Expat\n Permission is hereby granted"))
        for library in ["speexdsp", "libsoxr", "libebur128", "lilv", "ALSA", "Swift runtime"] {
            #expect(copyright.contains(library), "the copyright file does not name \(library)")
        }
    }

    /// The packages that `names` depend on, directly or through their own `Depends:` and
    /// `Pre-Depends:`, as installed here, with `names`.
    static func dependencyClosure(_ names: Set<String>) throws -> Set<String> {
        var closure = names, pending = Array(names)
        while let name = pending.popLast() {
            let r = try CLI.shell("dpkg-query -W -f '${Depends}, ${Pre-Depends}' \(CLI.quote(name))")
            for next in packageNames(String(decoding: r.stdout, as: UTF8.self)) where closure.insert(next).inserted {
                pending.append(next)
            }
        }
        return closure
    }

    /// The package that holds `library` (dpkg -S), trying its real path and the /usr-merged
    /// spellings, since dpkg records each file under the one path it was shipped as.
    static func owner(of library: String) throws -> String? {
        let r = try CLI.shell("""
            p=\(CLI.quote(library)); real=$(realpath "$p")
            for q in "$p" "$real" "${p#/usr}" "/usr$p" "${real#/usr}" "/usr$real"; do
                dpkg -S "$q" 2>/dev/null && exit 0
            done
            exit 1
            """)
        guard r.status == 0, let line = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").first else { return nil }
        return line.split(separator: ":").first.map(String.init)
    }

    @Test func everyLibraryTheBinaryNeedsComesFromItsDepends() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.shell("dpkg-deb -x \(CLI.quote(try Self.deb())) \(CLI.quote(dir.path))").status == 0)
        let binary = dir.appendingPathComponent("usr/bin/aupipe").path
        let depends = Self.packageNames(try Self.field("Depends"))
        let closure = try Self.dependencyClosure(depends)

        // The libraries it names itself (NEEDED) come from a package Depends: names.
        let needed = try CLI.shell("readelf -d \(CLI.quote(binary)) | sed -n 's/.*(NEEDED).*\\[\\(.*\\)\\]/\\1/p'")
        let neededNames = String(decoding: needed.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(neededNames.contains("libsoxr.so.0") && neededNames.contains("libspeexdsp.so.1"), "\(neededNames)")

        // Every library ldd loads (those the NEEDED ones load too) belongs to Depends: or to
        // what those depend on.
        let ldd = try CLI.shell("ldd \(CLI.quote(binary))")
        #expect(ldd.status == 0, "\(ldd.stderr)")
        let lines = String(decoding: ldd.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(!lines.contains { $0.contains("not found") }, "\(lines)")
        var loaded: [String: String] = [:]  // soname -> path
        for line in lines {
            let parts = line.split(separator: " ").map(String.init)
            if let arrow = parts.firstIndex(of: "=>"), arrow + 1 < parts.count, parts[arrow + 1].hasPrefix("/") {
                loaded[parts[0].trimmingCharacters(in: .whitespaces)] = parts[arrow + 1]
            } else if let path = parts.first(where: { $0.hasPrefix("/") }) {
                loaded[URL(fileURLWithPath: path).lastPathComponent] = path
            }
        }
        #expect(loaded.count >= neededNames.count, "\(lines)")
        for (soname, path) in loaded.sorted(by: { $0.key < $1.key }) {
            guard let package = try Self.owner(of: path) else {
                Issue.record("\(soname) (\(path)) belongs to no installed package")
                continue
            }
            if neededNames.contains(soname) {
                #expect(depends.contains(package), "\(soname) is NEEDED by aupipe and comes from \(package), which Depends: (\(depends.sorted())) does not name")
            } else {
                #expect(closure.contains(package), "\(soname) comes from \(package), which neither Depends: nor their dependencies name")
            }
        }
    }

    @Test(.needs("apt-get"))
    func aptWouldInstallItWithItsDepends() throws {
        let r = try CLI.shell("apt-get install -s \(CLI.quote(try Self.deb())) 2>&1")
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(r.status == 0, "\(text)")
        #expect(text.contains("Inst aupipe (\(Version.number) local-deb"), "\(text)")
    }
}
