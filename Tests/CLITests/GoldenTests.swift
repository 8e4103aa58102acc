import AUPipeKit
import Foundation
import Testing

/// One golden pipeline: `cat Golden/INPUT | aupipe ARGUMENTS` must give Golden/EXPECTED byte for byte.
struct GoldenCase: Sendable, CustomTestStringConvertible {
    /// The expected output's file name under Golden/.
    let expected: String
    let input: String
    /// aupipe's arguments, as shell words.
    let arguments: String
    /// The output format when the output is raw (no header to read it from).
    let rawOutput: String?
    /// Frames the expected output must hold, so that a regeneration cannot bless a wrong length.
    let frames: Int

    var testDescription: String { "\(input) | aupipe \(arguments)" }

    init(_ expected: String, input: String, _ arguments: String, rawOutput: String? = nil, frames: Int) {
        self.expected = expected
        self.input = input
        self.arguments = arguments
        self.rawOutput = rawOutput
        self.frames = frames
    }

    /// Inputs: see Golden/README.md for the commands that made them.
    static let all: [GoldenCase] = [
        // 8820 frames at 44.1 kHz -> round(8820 * 48000 / 44100) = 9600.
        GoldenCase("clip44k_resample48k.wav", input: "clip44k_stereo.wav", "resample 48000", frames: 9600),
        GoldenCase("clip44k_mono_gain-6.wav", input: "clip44k_stereo.wav", "convert channels=1 : gain -6", frames: 8820),
        GoldenCase("tone16k_mute0.2-0.4.wav", input: "tone16k_mono.wav", "mute at=0.2-0.4 ramp=10ms", frames: 8000),
        GoldenCase("tone16k_mulaw.au", input: "tone16k_mono.wav", "-t au --out-format mulaw", frames: 8000),
        GoldenCase("clip44k_f32.caf", input: "clip44k_stereo.wav", "-t caf --out-format f32le", frames: 8820),
        GoldenCase("tone8k_gain-3.wav", input: "tone8k_mono.s16le", "--in-format s16le:8000:1 -t wav gain -3", frames: 4000),
        GoldenCase("tone8k_to16k_stereo.s16le", input: "tone8k_mono.s16le", "--in-format s16le:8000:1 --out-format s16le:16000:2",
                   rawOutput: "s16le:16000:2", frames: 8000),
        // Speech (espeak-ng, 22.05 kHz mono) mixed with a music bed made at 32 kHz stereo and read
        // from a process substitution: the bus is resampled to 48 kHz; the bed (1.2 s) outlasts the speech.
        GoldenCase("speech_music_mix48k.wav", input: "speech22k_mono.wav",
                   "resample 48000 : convert channels=2 : mix input=<(\"$AUPIPE\" gen tones 220,277.2,329.6 level=-20 duration=1.2 --out-format s16le:32000:2),gain=-3,pan=0.3 duration=longest live=off",
                   frames: 57600),
    ]
}

@Suite("Golden pipelines")
struct GoldenTests {
    static var updating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" }

    @Test("golden", arguments: GoldenCase.all)
    func golden(_ g: GoldenCase) throws {
        let dir = CLI.goldenDirectory
        let r = try CLI.shell("cat \(CLI.quote(g.input)) | \"$AUPIPE\" \(g.arguments)", cwd: dir)
        try #require(r.status == 0, "aupipe \(g.arguments) failed: \(r.stderr)")
        #expect(r.stderr == "", "unexpected stderr: \(r.stderr)")
        let expectedURL = dir.appendingPathComponent(g.expected)

        if Self.updating {
            try r.stdout.write(to: expectedURL)
            Issue.record("UPDATE_GOLDEN=1: regenerated Golden/\(g.expected) (\(r.stdout.count) bytes); review it, then run again without UPDATE_GOLDEN")
        }
        let expected = try Data(contentsOf: expectedURL)
        let (header, format) = try Self.layout(of: expected, raw: g.rawOutput)
        #expect((expected.count - header) / format.bytesPerFrame == g.frames && (expected.count - header) % format.bytesPerFrame == 0,
                "Golden/\(g.expected) holds \(expected.count - header) audio bytes, not \(g.frames) frames of \(format.spec)")
        if let difference = Self.firstDifference(actual: r.stdout, expected: expected, headerBytes: header, format: format) {
            Issue.record("aupipe \(g.arguments) differs from Golden/\(g.expected): \(difference)")
        }
    }

    /// Header length and sample format of a golden output.
    static func layout(of d: Data, raw: String?) throws -> (Int, StreamFormat) {
        if let raw { return (0, try FormatSpec.parse(raw, option: "golden")) }
        let (header, _) = try HeaderReader.read(MemorySource([UInt8](d)), rawFormat: nil)
        return (Int(header.headerBytes), header.format)
    }

    /// nil when equal; else the first differing byte, and past the header its frame, channel
    /// and both sample values.
    static func firstDifference(actual: Data, expected: Data, headerBytes: Int, format: StreamFormat) -> String? {
        if actual == expected { return nil }
        let a = [UInt8](actual), e = [UInt8](expected)
        var i = 0
        while i < min(a.count, e.count) && a[i] == e[i] { i += 1 }
        var text = "lengths \(a.count) (actual) and \(e.count) (expected) bytes; "
        if i == min(a.count, e.count) {
            text += "equal up to byte \(i), then one ends"
            if i >= headerBytes { text += " (frame \((i - headerBytes) / format.bytesPerFrame))" }
            return text
        }
        text += "first difference at byte \(i): 0x\(String(format: "%02x", a[i])) vs 0x\(String(format: "%02x", e[i]))"
        guard i >= headerBytes else { return text + ", inside the \(headerBytes)-byte header" }
        let offset = i - headerBytes
        let frame = offset / format.bytesPerFrame
        let bps = format.encoding.bytesPerSample
        let channel = offset % format.bytesPerFrame / bps
        let start = headerBytes + frame * format.bytesPerFrame + channel * bps
        func sample(_ b: [UInt8]) -> String {
            guard start + bps <= b.count else { return "(missing)" }
            var value: Float = 0
            Array(b[start..<start + bps]).withUnsafeBytes { SampleCodec(format.encoding).decode($0.baseAddress!, count: 1, into: &value) }
            if format.encoding.isInteger {
                return "\(Int((Double(value) * Double(1 << (format.encoding.bits - 1))).rounded()))"
            }
            return "\(value)"
        }
        return text + "; frame \(frame), channel \(channel) of \(format.spec): actual \(sample(a)), expected \(sample(e))"
    }

    /// The difference report itself: a changed sample is located by frame and channel.
    @Test("a mismatch names frame, channel and both values")
    func reportsFirstDifference() throws {
        let expected = try Data(contentsOf: CLI.goldenDirectory.appendingPathComponent("clip44k_mono_gain-6.wav"))
        let (header, format) = try Self.layout(of: expected, raw: nil)
        #expect(format.spec == "s16le:44100:1")
        #expect(header == 44)
        var actual = [UInt8](expected)
        actual[header + 2 * 100] ^= 0x01  // frame 100, low byte
        let text = try #require(Self.firstDifference(actual: Data(actual), expected: expected, headerBytes: header, format: format))
        #expect(text.contains("byte \(header + 200)"), "\(text)")
        #expect(text.contains("frame 100, channel 0"), "\(text)")
        var headerChange = [UInt8](expected)
        headerChange[24] ^= 0x01
        let inHeader = try #require(Self.firstDifference(actual: Data(headerChange), expected: expected, headerBytes: header, format: format))
        #expect(inHeader.contains("inside the 44-byte header"), "\(inHeader)")
        #expect(Self.firstDifference(actual: expected, expected: expected, headerBytes: header, format: format) == nil)
    }

    /// The expected files are checked for what they claim, not only against themselves: the mute
    /// golden is silent from 0.2 s + ramp to 0.4 s and equal to the input away from the ramps.
    @Test("the mute golden is silent where asked and untouched elsewhere")
    func muteGoldenMeansWhatItSays() throws {
        let dir = CLI.goldenDirectory
        let input = [UInt8](try Data(contentsOf: dir.appendingPathComponent("tone16k_mono.wav")))
        let output = [UInt8](try Data(contentsOf: dir.appendingPathComponent("tone16k_mute0.2-0.4.wav")))
        func s16(_ b: [UInt8], _ frame: Int) -> Int16 { Int16(bitPattern: UInt16(b[44 + 2 * frame]) | UInt16(b[45 + 2 * frame]) << 8) }
        try #require(input.count == 44 + 16000 && output.count == 44 + 16000)
        let start = 3200, end = 6400, ramp = 160  // 0.2 s, 0.4 s and 10 ms at 16 kHz
        #expect((0..<start).allSatisfy { s16(output, $0) == s16(input, $0) }, "changed before the mute")
        #expect((start + ramp - 1..<end).allSatisfy { s16(output, $0) == 0 }, "not silent inside the mute")
        #expect((end + ramp - 1..<8000).allSatisfy { s16(output, $0) == s16(input, $0) }, "changed after the unmute ramp")
        #expect((start..<start + ramp - 1).contains { s16(output, $0) != 0 }, "no fade-out ramp")
    }

    static func s16Samples(_ name: String, skip: Int) throws -> [Int16] {
        let d = [UInt8](try Data(contentsOf: CLI.goldenDirectory.appendingPathComponent(name)).dropFirst(skip))
        return stride(from: 0, to: d.count - 1, by: 2).map { Int16(bitPattern: UInt16(d[$0]) | UInt16(d[$0 + 1]) << 8) }
    }

    /// The mono golden is the mean of the two channels, 6 dB down, to within 1.5 steps (TPDF
    /// dither of up to ±1 step before rounding), with the error power of dither (a quarter step
    /// squared: RMS 0.5 step).
    @Test("the mono gain golden is (L+R)/2 at -6 dB")
    func monoGainGoldenMeansWhatItSays() throws {
        let stereo = try Self.s16Samples("clip44k_stereo.wav", skip: 44)
        let mono = try Self.s16Samples("clip44k_mono_gain-6.wav", skip: 44)
        try #require(mono.count * 2 == stereo.count && mono.count == 8820)
        let factor = pow(10, -6.0 / 20)
        let errors = (0..<mono.count).map { Double(mono[$0]) - (Double(stereo[2 * $0]) + Double(stereo[2 * $0 + 1])) / 2 * factor }
        let worst = errors.map(abs).max()!, rms = (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
        #expect(worst <= 1.5, "a sample is \(worst) steps from (L+R)/2 at -6 dB")
        #expect(abs(rms - 0.5) <= 0.05, "the error's RMS is \(rms) steps, not TPDF's 0.5")
    }

    /// The resample golden agrees with sox's very-high-quality rate at zero lag (away from the
    /// edges): length exact, no delay, and well above the filters' noise floor.
    @Test("the resample golden agrees with sox rate -v, aligned", .needs("sox"))
    func resampleGoldenAgreesWithSox() throws {
        let r = try CLI.shell("sox clip44k_stereo.wav -t raw -e signed-integer -b 16 -L -r 48000 - rate -v", cwd: CLI.goldenDirectory)
        try #require(r.status == 0, "\(r.stderr)")
        let d = [UInt8](r.stdout)
        let sox = stride(from: 0, to: d.count - 1, by: 2).map { Int16(bitPattern: UInt16(d[$0]) | UInt16(d[$0 + 1]) << 8) }
        let ours = try Self.s16Samples("clip44k_resample48k.wav", skip: 44)
        try #require(ours.count == sox.count && ours.count == 9600 * 2)
        func snr(lag: Int) -> Double {
            var signal = 0.0, noise = 0.0
            for i in 800..<(ours.count - 800) {
                signal += Double(sox[i]) * Double(sox[i])
                noise += pow(Double(sox[i]) - Double(ours[i + 2 * lag]), 2)
            }
            return 10 * log10(signal / max(noise, 1e-9))
        }
        let aligned = snr(lag: 0)
        #expect(aligned > 60, "SNR against sox is \(aligned) dB")
        #expect(aligned > snr(lag: 1) + 20 && aligned > snr(lag: -1) + 20, "the output is not aligned with sox's")
    }
}
