import Foundation
import Testing

/// What aupipe says about the edges of a stream (issue 24, items 24 and 31): NaN and
/// infinities reaching a float output, a truncated file under `info`, a WAV data chunk of
/// size 0, and counts of one.
@Suite struct StreamEdgeReportTests {
    func run(_ script: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell(script, cwd: d)
        return (r.status, String(decoding: r.stdout, as: UTF8.self), r.stderr)
    }

    @Test func nonFiniteSamplesReachingAFloatOutputAreReportedAndCounted() throws {
        // 4000 frames of f32le stereo with a NaN at frame 1000, channel 1 and +inf at frame 3000, channel 0.
        let r = try run("""
            "$AUPIPE" gen sine 997 duration=4000f --out-format f32le:16000:2 -t raw > a.f32
            put() { printf "$1" | dd of=a.f32 bs=1 seek=$(( $2 * 4 )) conv=notrunc status=none; }
            put '\\000\\000\\300\\177' $(( 1000 * 2 + 1 )); put '\\000\\000\\200\\177' $(( 3000 * 2 ))
            F="--in-format f32le:16000:2"
            echo "copy:"; "$AUPIPE" $F -t raw < a.f32 2>&1 >/dev/null
            echo "chain:"; "$AUPIPE" $F gain -6 -t raw --out-format f64be < a.f32 2>&1 >/dev/null
            echo "json:"; "$AUPIPE" $F gain -6 -t raw --stats=json < a.f32 2>&1 >/dev/null | grep '^{' | jq -r '.output.nonFinite'
            echo "text:"; "$AUPIPE" $F -t raw --stats < a.f32 2>&1 >/dev/null | grep 'stats: output'
            echo "integer:"; "$AUPIPE" $F -t raw --out-format s16le < a.f32 2>&1 >/dev/null; echo "status=$?"
            """)
        let out = r.stdout
        #expect(out.contains("copy:\naupipe: warning: NaN or infinite values reached the f32le output: 2 samples, the first at frame 1000, channel 1"), "\(out)")
        #expect(out.contains("chain:\naupipe: warning: NaN or infinite values reached the f64be output: 2 samples, the first at frame 1000, channel 1"))
        #expect(out.contains("json:\n2\n"))
        #expect(out.contains("output raw f32le:16000:2, 4000 frames, clipped 0, non-finite 2"))
        // An integer output has no NaN to carry: nothing to warn about.
        #expect(out.contains("integer:\nstatus=0"))
    }

    /// The count runs on every block of a float output: it must not allocate. All-ones bytes
    /// are NaN in f32, so every sample of the stream is counted.
    @Test func countingNonFiniteOutputDoesNotAllocatePerBlock() throws {
        let shim = try #require(AllocationTests.shim, "could not compile Support/malloccount.c with clang or gcc")
        func allocations(seconds: Int, chain: String) throws -> Int {
            let r = try CLI.shell("head -c \(seconds * 48000 * 8) /dev/zero | tr '\\000' '\\377' | LD_PRELOAD='\(shim)' \"$AUPIPE\" --in-format f32le:48000:2 -t raw \(chain) 2>&1 >/dev/null | grep -E '^mallocs:|non-finite|NaN'")
            let text = String(decoding: r.stdout, as: UTF8.self)
            #expect(text.contains("reached the f32le output: \(seconds * 96000) samples, the first at frame 0, channel 0"), "\(text)")
            let count = text.split(separator: "\n").first { $0.hasPrefix("mallocs: ") }.map { String($0.dropFirst(9)) }
            return try #require(count.flatMap { Int($0) }, "no count in '\(text)'")
        }
        for chain in ["", "gain -1"] {
            let short = try allocations(seconds: 1, chain: chain), long = try allocations(seconds: 30, chain: chain)
            #expect(abs(long - short) <= 4, "\(short) allocations for 1 s but \(long) for 30 s with chain '\(chain)'")
        }
    }

    @Test func infoOnATruncatedFileGivesTheFramesPresent() throws {
        let r = try run("""
            "$AUPIPE" gen sine 997 duration=4000f --out-format s16le:16000:2 -o a.wav
            head -c $(( 44 + 239 * 4 + 1 )) a.wav > cut.wav
            "$AUPIPE" info cut.wav
            """)
        #expect(r.stdout.contains("frames: 239\n"), "\(r.stdout)")
        #expect(r.stdout.contains("warning: the file is truncated: its WAV header declares 4000 frames (16000 bytes), the file holds 957 bytes of audio"))
        #expect(r.stdout.contains("warning: 1 trailing byte left over"))
    }

    @Test func oneTrailingByteIsOneByte() throws {
        let r = try run("""
            "$AUPIPE" gen sine 997 duration=20f --out-format s16le:16000:2 -t raw > a.raw
            head -c 41 a.raw | "$AUPIPE" --in-format s16le:16000:2 -t raw > /dev/null; echo "status=$?" >&2
            """)
        #expect(r.stderr.contains("the stream ended mid-frame; 1 trailing byte dropped"), "\(r.stderr)")
        #expect(!r.stderr.contains(" 1 trailing bytes") && !r.stderr.contains(" 1 bytes"))
    }

    /// RIFF/WAVE s16le mono 8 kHz whose data chunk says 0 bytes, followed by `after` (bash printf text).
    static func zeroSizedWAV(_ name: String, after: String) -> String {
        #"printf 'RIFF\044\000\000\000WAVEfmt \020\000\000\000\001\000\001\000\100\037\000\000\200\076\000\000\002\000\020\000data\000\000\000\000'"# + " > \(name); printf '\(after)' >> \(name)\n"
    }

    @Test func aZeroSizedDataChunkFollowedByAChunkIsEmpty() throws {
        // LIST INFO with an empty ISFT: 20 bytes that are not audio (sox: 0 frames).
        let list = #"LIST\014\000\000\000INFOISFT\000\000\000\000"#
        let r = try run(Self.zeroSizedWAV("list.wav", after: list) + Self.zeroSizedWAV("audio.wav", after: #"\001\002\003\004\005\006\007\010"#) + """
            "$AUPIPE" info list.wav | grep '^frames'
            echo "file=$("$AUPIPE" -i list.wav -t raw | wc -c)"
            echo "pipe=$(cat list.wav | "$AUPIPE" -t raw | wc -c)"
            command -v sox > /dev/null && echo "sox=$(sox --i -s list.wav)"
            echo "audiofile=$("$AUPIPE" -i audio.wav -t raw | wc -c)"
            echo "audiopipe=$(cat audio.wav | "$AUPIPE" -t raw | wc -c)"
            """)
        #expect(r.stdout.contains("frames: 0\n"), "\(r.stdout) \(r.stderr)")
        #expect(r.stdout.contains("file=0\n") && r.stdout.contains("pipe=0\n"))
        if CLI.has("sox") { #expect(r.stdout.contains("sox=0\n")) }
        // A size of 0 with audio after it is a writer's "to the end" (arecord on a pipe): read it all.
        #expect(r.stdout.contains("audiofile=8\n") && r.stdout.contains("audiopipe=8\n"))
    }
}
