import Foundation
import Testing

/// `-o FILE` onto a regular file (or a new name) is written beside it and renamed onto it only
/// when the run succeeds (issue 24, item 26): a failed run leaves the old file as it was and
/// keeps what it wrote as `FILE.partial`, named on stderr. FIFOs and devices are written directly.
@Suite struct OutputReplacementTests {
    /// A WAV whose header promises one second but that holds 0.2 s: a truncated input (65).
    static let truncated = "\"$AUPIPE\" gen sine duration=1s -o full.wav && head -c 19244 full.wav > short.wav"

    @Test func aFailedRunLeavesTheOldFileAndKeepsAPartial() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            \(Self.truncated)
            "$AUPIPE" gen sine duration=10f -o golden.wav && cp golden.wav before.wav && touch -d @1000000000 golden.wav
            "$AUPIPE" gain -3 -o golden.wav < short.wav; echo "status=$?" >&2
            cmp golden.wav before.wav && echo same
            stat -c %Y golden.wav
            ls -A
            """, cwd: d)
        let out = String(decoding: r.stdout, as: UTF8.self)
        #expect(r.stderr.contains("status=65"), "\(r.stderr)")
        #expect(out.contains("same\n1000000000\n"), "the golden file changed: \(out)")
        #expect(r.stderr.contains("aupipe: output kept as golden.wav.partial; golden.wav was left as it was"), "\(r.stderr)")
        // What was written is kept, with its header patched to what it holds.
        let info = try CLI.shell("\"$AUPIPE\" info golden.wav.partial", cwd: d)
        #expect(info.status == 0 && String(decoding: info.stdout, as: UTF8.self).contains("frames: 9600"), "\(info.stdout) \(info.stderr)")
        #expect(!out.contains(".tmp"), "a temporary file was left: \(out)")
    }

    @Test func aFailedRunOntoANewNameCreatesOnlyThePartial() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("\(Self.truncated); \"$AUPIPE\" gain -3 -o new.wav < short.wav; echo \"status=$?\" >&2; ls -A", cwd: d)
        let names = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n")
        #expect(r.stderr.contains("status=65"), "\(r.stderr)")
        #expect(names.sorted() == ["full.wav", "new.wav.partial", "short.wav"], "\(names)")
    }

    @Test func aSuccessfulRunReplacesTheFileWithItsModeKept() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            umask 022
            "$AUPIPE" gen sine duration=10f -o old.wav && chmod 600 old.wav
            "$AUPIPE" gen sine duration=20f -o old.wav && "$AUPIPE" gen sine duration=20f -o new.wav
            stat -c '%n %a %s' old.wav new.wav
            ls -A | wc -l
            """, cwd: d)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self) == "old.wav 600 84\nnew.wav 644 84\n2\n")
    }

    @Test func aLinkIsFollowedAndKept() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            mkdir real && "$AUPIPE" gen sine duration=10f -o real/a.wav && ln -s real/a.wav link.wav
            "$AUPIPE" gen sine duration=20f -o link.wav
            test -L link.wav && stat -c %s real/a.wav && ls -A real
            """, cwd: d)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self) == "84\na.wav\n")
    }

    @Test func fifosAndDevicesAreWrittenDirectly() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            mkfifo pipe && { cat pipe > got.wav & }
            "$AUPIPE" gen sine duration=10f -o pipe && wait && stat -c %s got.wav
            "$AUPIPE" gen sine duration=10f -o /dev/null && ls -A
            """, cwd: d)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self) == "64\ngot.wav\npipe\n")
    }

    @Test func aMissingDirectoryIsStill73() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=10f -o nodir/x.wav", cwd: d)
        #expect(r.status == 73)
        #expect(r.stderr == "aupipe: cannot create output nodir/x.wav: No such file or directory\n")
    }
}
