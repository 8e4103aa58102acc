import Foundation
import Testing

/// `aupipe compare` through the binary, on streams made with `aupipe gen`.
@Suite struct CompareTests {
    struct Run {
        var status: Int32
        var text: String
    }

    /// Runs a bash script in a fresh directory with `$AUPIPE` set; returns status and stdout+stderr.
    func run(_ script: String, in dir: URL) throws -> Run {
        let r = try CLI.shell(script, cwd: dir)
        return Run(status: r.status, text: String(decoding: r.stdout, as: UTF8.self) + r.stderr)
    }

    func dir() throws -> URL {
        let d = try CLI.temporaryDirectory()
        // A: 0.25 s of a 997 Hz sine, s16 stereo at 16 kHz.
        let made = try CLI.shell("\"$AUPIPE\" gen sine 997 duration=0.25 --out-format s16le:16000:2 -o a.wav", cwd: d)
        #expect(made.status == 0, "\(made.stderr)")
        return d
    }

    @Test func identicalSamplesAcrossContainersPass() throws {
        let d = try dir()
        let r = try run("\"$AUPIPE\" -i a.wav -t caf -o a.caf && \"$AUPIPE\" compare a.wav a.caf && \"$AUPIPE\" compare a.caf - < a.wav", in: d)
        #expect(r.status == 0, "\(r.text)")
        #expect(r.text.contains("result: identical"))
        #expect(r.text.contains("4000 frames"))
    }

    @Test func aSingleLSBChangeIsFoundAndToleranceDecides() throws {
        let d = try dir()
        // Flip the lowest bit of one sample: frame 1000, channel 1 (data starts at byte 44).
        let offset = 44 + 1000 * 4 + 2
        let r = try run("""
            cp a.wav b.wav && printf "$(printf '\\\\%03o' $(( $(od -An -tu1 -j\(offset) -N1 a.wav) ^ 1 )))" |
              dd of=b.wav bs=1 seek=\(offset) conv=notrunc status=none
            "$AUPIPE" compare a.wav b.wav; echo "exact=$?"
            "$AUPIPE" compare a.wav b.wav --max-lsb 1; echo "lsb1=$?"
            "$AUPIPE" compare a.wav b.wav --max-lsb 0.5; echo "lsbhalf=$?"
            "$AUPIPE" compare a.wav b.wav --max-diff-db -80; echo "db=$?"
            "$AUPIPE" compare a.wav b.wav --min-snr 130; echo "snr=$?"
            """, in: d)
        #expect(r.text.contains("max difference: 1 LSB of s16le (-90.31 dBFS) at frame 1000, channel 1"), "\(r.text)")
        #expect(r.text.contains("first difference: frame 1000, channel 1"))
        #expect(r.text.contains("exact=1") && r.text.contains("lsb1=0") && r.text.contains("lsbhalf=1"))
        // One LSB in 8000 samples of a -3 dBFS sine: SNR about 123 dB.
        #expect(r.text.contains("db=0") && r.text.contains("snr=1"))
    }

    @Test func aOneSampleShiftIsReportedNotAligned() throws {
        let d = try dir()
        // B is A delayed by one frame (an impulse of silence in front), cut to the same length.
        let r = try run("""
            "$AUPIPE" gen silence duration=1f --out-format s16le:16000:2 -t raw > shifted.raw
            "$AUPIPE" -i a.wav -t raw | head -c $(( 3999 * 4 )) >> shifted.raw
            "$AUPIPE" compare a.wav shifted.raw --in-format s16le:16000:2 --min-snr 40; echo "status=$?"
            """, in: d)
        #expect(r.text.contains("status=1"), "\(r.text)")
        #expect(r.text.contains("first difference: frame 0, channel 0") || r.text.contains("first difference: frame 1,"))
        #expect(r.text.contains("4000 frames") && !r.text.contains("result: identical"))
    }

    @Test func aLengthDifferenceFailsUnlessAllowed() throws {
        let d = try dir()
        let r = try run("""
            "$AUPIPE" -i a.wav -t raw | head -c $(( 3990 * 4 )) > short.raw
            "$AUPIPE" compare a.wav short.raw --in-format s16le:16000:2; echo "strict=$?"
            "$AUPIPE" compare a.wav short.raw --in-format s16le:16000:2 --allow-length; echo "allowed=$?"
            """, in: d)
        #expect(r.text.contains("lengths differ: A has 4000 frames, B has 3990"), "\(r.text)")
        #expect(r.text.contains("strict=1") && r.text.contains("allowed=0"))
    }

    @Test func encodingsNeedIgnoreFormatAndRatesCannotBeCompared() throws {
        let d = try dir()
        let r = try run("""
            "$AUPIPE" -i a.wav --out-format f32le -o a32.wav
            "$AUPIPE" compare a.wav a32.wav; echo "strict=$?"
            "$AUPIPE" compare a.wav a32.wav --ignore-format; echo "ignored=$?"
            "$AUPIPE" -i a.wav resample 8000 -o a8k.wav
            "$AUPIPE" compare a.wav a8k.wav --ignore-format --allow-length; echo "rate=$?"
            """, in: d)
        #expect(r.text.contains("encodings differ: A is s16le, B is f32le"), "\(r.text)")
        // Not compared at all: the sysexits status of the cause (65), never 1 (issue 24, item 28).
        #expect(r.text.contains("strict=65") && r.text.contains("ignored=0") && r.text.contains("rate=65"))
        #expect(r.text.contains("formats differ: A is s16le:16000:2, B is s16le:8000:2"))
    }

    @Test func jsonIsParseableAndErrorsAreNotDifferences() throws {
        let d = try dir()
        let r = try CLI.shell("\"$AUPIPE\" compare a.wav a.wav --json", cwd: d)
        let object = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        #expect(object["pass"] as? Bool == true)
        #expect((object["a"] as? [String: Any])?["frames"] as? Int == 4000)
        let missing = try CLI.shell("\"$AUPIPE\" compare a.wav nope.wav", cwd: d)
        #expect(missing.status == 66 && missing.stderr.hasPrefix("aupipe: cannot open input nope.wav"))
        let usage = try CLI.shell("\"$AUPIPE\" compare a.wav", cwd: d)
        #expect(usage.status == 64)
    }

    /// A golden test as a user would write one: generate, process, compare with a tolerance.
    @Test func aUsersGoldenPipeline() throws {
        let d = try dir()
        let r = try run("""
            "$AUPIPE" gen sweep from=100 to=7000 duration=0.5 --out-format s16le:16000:1 | "$AUPIPE" resample 48000 : gain -3 -o golden.wav
            "$AUPIPE" gen sweep from=100 to=7000 duration=0.5 --out-format s16le:16000:1 | "$AUPIPE" resample 48000 : gain -3 > now.wav
            "$AUPIPE" compare golden.wav now.wav && echo same
            "$AUPIPE" gen sweep from=100 to=7000 duration=0.5 --out-format s16le:16000:1 | "$AUPIPE" resample 48000 quality=3 : gain -3 > changed.wav
            "$AUPIPE" compare golden.wav changed.wav --min-snr 30; echo "tolerant=$?"
            "$AUPIPE" compare golden.wav changed.wav; echo "exact=$?"
            """, in: d)
        #expect(r.text.contains("same"), "\(r.text)")
        #expect(r.text.contains("tolerant=0") && r.text.contains("exact=1"))
    }
}
