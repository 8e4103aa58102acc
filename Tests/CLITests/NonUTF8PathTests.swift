import Foundation
import Testing

/// File names are bytes: names that are not UTF-8 (byte 0xff) reach the files as given, for
/// `-i`, `-o`, `tee`, `mix input=`, `aec ref=`, `meter plot=` and `--control`, and messages
/// name them as given (issue 24, item 6).
@Suite struct NonUTF8PathTests {
    /// The directory's names, as bytes escaped by `od -An -c`-like text: `\377` for 0xff.
    static func listing(_ d: URL) throws -> String {
        String(decoding: try CLI.shell("ls | od -An -c | tr -s ' ' | tr -d '\\n'", cwd: d).stdout, as: UTF8.self)
    }

    @Test func inputOutputAndSideFilesKeepTheirBytes() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine duration=100f --out-format s16le:16000:1 -o $'in\\xff.wav' || exit 1
            "$AUPIPE" -i $'in\\xff.wav' gain -3 : tee $'copy\\xfe.wav' : mix input=$'in\\xff.wav' : aec ref=$'in\\xff.wav' : meter plot=$'plot\\xfd.svg' -o $'out\\xfc.wav'
            """, cwd: d)
        #expect(r.status == 0, "\(r.stderr)")
        let names = try Self.listing(d)
        for name in [" c o p y 376 . w a v", " i n 377 . w a v", " o u t 374 . w a v", " p l o t 375 . s v g"] {
            #expect(names.contains(name + " \\n"), "\(name) missing: \(names)")
        }
        #expect(!names.contains("357 277 275"), "a name with U+FFFD was created: \(names)")
    }

    @Test func aMissingNameIsReportedWithItsBytes() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" -i $'no\\xff.wav' gain -3 -o out.wav", cwd: d)
        #expect(r.status == 66)
        let bytes = try CLI.shell("\"$AUPIPE\" -i $'no\\xff.wav' gain -3 -o out.wav 2>&1 | od -An -tx1 | tr -d ' \\n'", cwd: d)
        // "no" 0xff ".wav": the name as given, not U+FFFD (ef bf bd).
        #expect(String(decoding: bytes.stdout, as: UTF8.self).contains("6e6fff2e776176"), "\(r.stderr)")
    }

    @Test func theControlFIFOKeepsItsBytes() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine duration=1s -o in.wav
            # The rest of the stream waits for the reply, so the command is served while it runs.
            ( for i in $(seq 500); do [ -p $'ctl\\xff' ] && break; sleep 0.01; done
              timeout 10 bash -c 'echo "get gain.db" > "$1"' _ $'ctl\\xff'
              head -c 1044 in.wav
              for i in $(seq 500); do grep -q gain.db err.txt 2> /dev/null && break; sleep 0.01; done
              tail -c +1045 in.wav ) | "$AUPIPE" --control $'ctl\\xff' gain 0 -o out.wav 2> err.txt
            echo "status=$?"; cat err.txt
            """, cwd: d)
        let out = String(decoding: r.stdout, as: UTF8.self)
        #expect(out.contains("status=0"), "\(out) \(r.stderr)")
        #expect(out.contains("gain.db"), "no reply on the control FIFO: \(out)")
    }
}
