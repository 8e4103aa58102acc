import Foundation
import Testing

/// `aupipe compare` as a gate in scripts and Makefiles (issue 24, items 23, 24, 25, 28, 31):
/// what passes, its exit status, and what --json tells jq.
@Suite struct CompareVerdictTests {
    /// Runs a bash script in a fresh directory holding a.wav (0.25 s of a 997 Hz sine, s16
    /// stereo at 16 kHz: 4000 frames) and its samples as a.raw; returns status, stdout+stderr.
    func run(_ script: String) throws -> (status: Int32, text: String) {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine 997 duration=0.25 --out-format s16le:16000:2 -o a.wav
            "$AUPIPE" -i a.wav -t raw > a.raw
            \(script)
            """, cwd: d)
        return (r.status, String(decoding: r.stdout, as: UTF8.self) + r.stderr)
    }

    // MARK: item 23: --allow-length

    @Test func allowLengthNeverPassesAnEmptyStreamAndIsBounded() throws {
        let r = try run("""
            F="--in-format s16le:16000:2"
            : > empty.raw
            head -c $(( 3990 * 4 )) a.raw > p3990.raw
            head -c $(( 3950 * 4 )) a.raw > p3950.raw
            head -c $(( 2000 * 4 )) a.raw > p2000.raw
            "$AUPIPE" compare a.wav empty.raw $F --allow-length --min-snr 90; echo "empty=$?"
            "$AUPIPE" compare a.wav empty.raw $F --allow-length=100% --json | jq -r '"emptyjson=\\(.pass) \\(.reason) \\(.identical)"'
            "$AUPIPE" compare a.wav p3990.raw $F --allow-length=10; echo "ten3990=$?"
            "$AUPIPE" compare a.wav p3950.raw $F --allow-length=10; echo "ten3950=$?"
            "$AUPIPE" compare a.wav p3990.raw $F --allow-length=1%; echo "pct3990=$?"
            "$AUPIPE" compare a.wav p3950.raw $F --allow-length=1%; echo "pct3950=$?"
            "$AUPIPE" compare a.wav p3950.raw $F --allow-length=0.5%; echo "half3950=$?"
            "$AUPIPE" compare a.wav p2000.raw $F --allow-length; echo "bare2000=$?"
            "$AUPIPE" compare a.wav p3990.raw $F --allow-length > bare.txt; echo "bare3990=$?"
            grep '^result' bare.txt
            "$AUPIPE" compare a.wav p3990.raw $F --allow-length --json | jq -r '"barejson=\\(.identical) \\(.pass)"'
            "$AUPIPE" compare a.wav p3990.raw $F --allow-length=ten; echo "bad=$?"
            """)
        #expect(r.text.contains("empty=1"), "\(r.text)")
        // Even the widest bound never passes an empty stream.
        #expect(r.text.contains("emptyjson=false nothing-compared false"))
        #expect(r.text.contains("ten3990=0") && r.text.contains("ten3950=1"))
        // 1 % of A's 4000 frames is 40.
        #expect(r.text.contains("pct3990=0") && r.text.contains("pct3950=1") && r.text.contains("half3950=1"))
        // A bare flag is bounded too (1 % of A): half of the golden fails; within the bound the
        // common part is compared, and the report says the lengths differ.
        #expect(r.text.contains("bare2000=1"))
        #expect(r.text.contains("bare3990=0"))
        #expect(r.text.contains("result: within tolerance (lengths differ by 10 frames, allowed by --allow-length=1%)"), "\(r.text)")
        #expect(!r.text.contains("result: identical"))
        #expect(r.text.contains("barejson=false true"))
        #expect(r.text.contains("bad=64") && r.text.contains("--allow-length=ten is neither a frame count"))
    }

    // MARK: item 24: NaN and infinities

    /// a.f32 holds a.raw's samples as f32le; nan.f32 the same with a NaN at frame 1000,
    /// channel 1, inf.f32 with +inf there and ninf.f32 with -inf.
    static let floats = """
        "$AUPIPE" --in-format s16le:16000:2 --out-format f32le -t raw < a.raw > a.f32
        put() { cp a.f32 "$2"; printf "$1" | dd of="$2" bs=1 seek=$(( (1000 * 2 + 1) * 4 )) conv=notrunc status=none; }
        put '\\000\\000\\300\\177' nan.f32; put '\\000\\000\\200\\177' inf.f32; put '\\000\\000\\200\\377' ninf.f32
        cp nan.f32 nan2.f32
        F="--in-format f32le:16000:2"

        """

    @Test func nonFiniteSamplesMatchOnlyThemselvesAndFailEveryTolerance() throws {
        let r = try run(Self.floats + """
            "$AUPIPE" compare a.f32 nan.f32 $F --max-lsb 0 --max-diff-db -200 --min-snr 200 > tol.txt; echo "tolerant=$?"
            cat tol.txt
            "$AUPIPE" compare a.f32 nan.f32 $F --max-lsb 1e9; echo "loose=$?"
            "$AUPIPE" compare nan.f32 nan2.f32 $F; echo "samenan=$?"
            "$AUPIPE" compare inf.f32 inf.f32 $F; echo "sameinf=$?"
            "$AUPIPE" compare inf.f32 ninf.f32 $F --max-lsb 1e12; echo "infninf=$?"
            "$AUPIPE" compare a.f32 nan.f32 $F --json | jq -r '"json=\\(.reason) \\(.nonFinite.b.count) \\(.nonFinite.b.first.frame) \\(.nonFinite.b.first.channel) \\(.nonFinite.mismatched.count)"'
            """)
        #expect(r.text.contains("tolerant=1"), "\(r.text)")
        #expect(r.text.contains("loose=1"))
        #expect(r.text.contains("non-finite (NaN, inf): A none; B 1 sample, the first at frame 1000, channel 1"))
        #expect(r.text.contains("result: differ: non-finite samples differ"))
        let report = r.text.components(separatedBy: "loose=").first ?? ""
        #expect(report.contains("max difference: inf LSB of f32le (inf dBFS) at frame 1000, channel 1"))
        #expect(report.contains("snr: -inf dB"))
        #expect(!report.contains("max difference: 0") && !r.text.contains("within tolerance"))
        #expect(r.text.contains("samenan=0") && r.text.contains("sameinf=0") && r.text.contains("infninf=1"))
        #expect(r.text.contains("json=non-finite-differ 1 1000 1 1"))
    }

    // MARK: item 25: EPIPE

    @Test func aClosedReaderDoesNotTurnDifferIntoSuccess() throws {
        // stdout is a pipe whose reader is already gone (deterministically, not `| true`).
        let r = try run("""
            head -c $(( 3999 * 4 )) a.raw > short.raw
            closed() { python3 -c 'import os, subprocess, sys
            r, w = os.pipe(); os.close(r)
            sys.exit(subprocess.run(sys.argv[1:], stdout=w).returncode)' "$@"; }
            closed "$AUPIPE" compare a.wav short.raw --in-format s16le:16000:2; echo "differ=$?"
            closed "$AUPIPE" compare a.wav short.raw --in-format s16le:16000:2 --json; echo "differjson=$?"
            closed "$AUPIPE" compare a.wav a.wav; echo "same=$?"
            """)
        #expect(r.text.contains("differ=1"), "\(r.text)")
        #expect(r.text.contains("differjson=1"))
        #expect(r.text.contains("same=0"))
    }

    // MARK: item 28: statuses and JSON for scripts

    @Test func cannotCompareHasItsOwnStatusAndReason() throws {
        let r = try run("""
            "$AUPIPE" -i a.wav resample 8000 -o a8k.wav
            "$AUPIPE" -i a.wav --out-format f32le -o a32.wav
            "$AUPIPE" compare a.wav a8k.wav; echo "rate=$?"
            "$AUPIPE" compare a.wav a32.wav; echo "encoding=$?"
            "$AUPIPE" compare a.wav a8k.wav --json > rate.json; echo "ratejson=$?"
            jq -r '"rj=\\(.compared) \\(.status) \\(.reason) \\(.a.frames) \\(.framesCompared) \\(.maxDifferenceLSB) \\(.pass)"' rate.json
            "$AUPIPE" compare a.wav missing.wav --json > missing.json; echo "missing=$?"
            jq -r '"mj=\\(.status) \\(.reason) \\(.pass)"' missing.json
            head -c $(( 3999 * 4 )) a.raw > short.raw
            "$AUPIPE" compare a.wav short.raw --in-format s16le:16000:2 --json | jq -r '"lj=\\(.status) \\(.reason)"'
            """)
        #expect(r.text.contains("rate=65") && r.text.contains("encoding=65"), "\(r.text)")
        #expect(r.text.contains("aupipe: compare: formats differ: A is s16le:16000:2, B is s16le:8000:2"))
        #expect(r.text.contains("result: cannot compare"))
        #expect(r.text.contains("ratejson=65"))
        #expect(r.text.contains("rj=false 65 formats-differ null null null false"))
        #expect(r.text.contains("missing=66") && r.text.contains("mj=66 cannot-open false"))
        #expect(r.text.contains("lj=1 lengths-differ"))
    }

    @Test func snrInJSONWorksWithJq() throws {
        let r = try run("""
            "$AUPIPE" gen silence duration=4000f --out-format s16le:16000:2 -o silent.wav
            "$AUPIPE" compare a.wav a.wav --json > same.json
            "$AUPIPE" compare silent.wav a.wav --json > silent.json
            jq -e '.snrDB >= 90 and .identical' same.json; echo "identical=$?"
            jq -e '.snrDB >= 90' silent.json; echo "minusinf=$?"
            jq -e '.snrDB < -1000' silent.json; echo "below=$?"
            python3 -c 'import json, sys; v = json.load(open("same.json"))["snrDB"]; print("py=%s" % (v > 1e300))'
            """)
        #expect(r.text.contains("identical=0"), "\(r.text)")
        #expect(r.text.contains("minusinf=1") && r.text.contains("below=0"))
        #expect(r.text.contains("py=True"))
    }

    // MARK: item 31: the command line and byte order

    @Test func dashDashDBSuffixesAndRangeWording() throws {
        let r = try run("""
            cp a.wav ./-x.wav
            "$AUPIPE" compare -- -x.wav a.wav; echo "dashdash=$?"
            "$AUPIPE" compare a.wav a.wav --max-diff-db -80dB --min-snr 90dB; echo "db=$?"
            "$AUPIPE" compare a.wav a.wav --max-diff-db=-80dB; echo "dbinline=$?"
            "$AUPIPE" compare a.wav a.wav --max-lsb -1; echo "lsb=$?"
            "$AUPIPE" compare a.wav a.wav --min-snr loud; echo "word=$?"
            """)
        #expect(r.text.contains("dashdash=0"), "\(r.text)")
        #expect(r.text.contains("db=0") && r.text.contains("dbinline=0"))
        #expect(r.text.contains("lsb=64") && r.text.contains("aupipe: compare: --max-lsb -1 is out of range 0...1000000000000"))
        #expect(!r.text.contains("-1 is not a number"))
        #expect(r.text.contains("word=64") && r.text.contains("--min-snr loud is not a number"))
    }

    @Test func byteOrderIsNoDifferenceInTheSamples() throws {
        let r = try run("""
            "$AUPIPE" -i a.wav -t au -o a.au
            "$AUPIPE" info a.au | grep '^format'
            "$AUPIPE" compare a.wav a.au; echo "au=$?"
            "$AUPIPE" -i a.wav --out-format u16le -o u.raw -t raw
            "$AUPIPE" compare a.wav u.raw --in-format u16le:16000:2; echo "unsigned=$?"
            """)
        #expect(r.text.contains("format: s16be:16000:2"), "\(r.text)")
        #expect(r.text.contains("au=0") && r.text.contains("result: identical"))
        // A different sample type still needs --ignore-format.
        #expect(r.text.contains("unsigned=65") && r.text.contains("encodings differ: A is s16le, B is u16le"))
    }
}
