import Foundation
import Testing

/// One NaN or infinity in float input does not move `meter`'s or `loudnorm`'s figures (issue 24,
/// item 11): such samples are measured as the sample before them, counted in `--stats` (`nonFiniteSamples`) and
/// reported once on stderr with their time; the audio itself passes as it is.
@Suite struct MeterNonFiniteTests {
    /// 15 s of stereo f32 at 48 kHz, raw: 5 s of sine at −30, −15 and −25 dBFS (a loudness range
    /// to lose), with `value` as the left sample of frame 336000 (7 s) unless nil.
    static func steps(_ value: Float?) throws -> Data {
        let r = try CLI.shell("for l in -30 -15 -25; do \"$AUPIPE\" gen sine 997 level=$l duration=5 --out-format f32le:48000:2 -t raw; done")
        try #require(r.status == 0, "\(r.stderr)")
        var d = r.stdout
        if let value {
            let at = 336_000 * 2 * 4
            withUnsafeBytes(of: value.bitPattern.littleEndian) { d.replaceSubrange(at..<at + 4, with: $0) }
        }
        return d
    }

    /// The unit's figures and the stderr lines before the JSON of `--stats=json`.
    static func run(_ chain: String, _ input: Data) throws -> (figures: [String: Double], stderr: String) {
        let r = try CLI.shell("\"$AUPIPE\" --in-format f32le:48000:2 --stats=json \(chain) -o /dev/null", stdin: input)
        try #require(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        let object = try JSONSerialization.jsonObject(with: Data(try #require(lines.last).utf8)) as? [String: Any]
        let unit = try #require((object?["units"] as? [[String: Any]])?.first)
        return ((unit["figures"] as? [String: Double]) ?? [:], lines.dropLast().joined(separator: "\n"))
    }

    @Test(arguments: [Float.nan, Float.infinity, -Float.infinity])
    func aNonFiniteSampleIsCountedAndLeftOut(value: Float) throws {
        let clean = try Self.run("meter", try Self.steps(nil))
        let bad = try Self.run("meter", try Self.steps(value))
        for key in ["integratedLUFS", "loudnessRangeLU", "truePeakDBTP", "samplePeakDBFS", "rmsDBFS"] {
            let a = try #require(clean.figures[key], "\(key)"), b = try #require(bad.figures[key], "\(value): \(key) is null")
            #expect(abs(a - b) <= 0.01, "\(value): \(key) \(b), without it \(a)")
        }
        #expect(clean.figures["nonFiniteSamples"] == 0)
        #expect(bad.figures["nonFiniteSamples"] == 1)
        #expect(bad.stderr.contains("aupipe: meter: warning: a non-finite sample (NaN or infinity) in the input at 7.000 s, channel 0"), "\(bad.stderr)")
        #expect(!clean.stderr.contains("non-finite"))
    }

    @Test func loudnormMeasuresTheSameWay() throws {
        let clean = try Self.run("loudnorm -23", try Self.steps(nil))
        let bad = try Self.run("loudnorm -23", try Self.steps(.nan))
        for key in ["inputIntegratedLUFS", "inputLoudnessRangeLU", "outputIntegratedLUFS", "gainDB"] {
            let a = try #require(clean.figures[key], "\(key)"), b = try #require(bad.figures[key], "\(key) is null")
            #expect(abs(a - b) <= 0.01, "\(key) \(b), without the NaN \(a)")
        }
        #expect(bad.figures["nonFiniteSamples"] == 1)
        #expect(bad.stderr.contains("aupipe: loudnorm: warning: a non-finite sample"), "\(bad.stderr)")
    }

    /// A NaN at a sine's crest (1 kHz at 48 kHz: frame 24012 is a crest) is measured as the
    /// sample before it, not as 0: a 0 there made the true-peak interpolator overshoot by 0.5 dB.
    @Test func aNonFiniteSampleAtACrestLeavesTheTruePeak() throws {
        let r = try CLI.shell("\"$AUPIPE\" gen sine 1000 level=-6 duration=1 --out-format f32le:48000:1 -t raw")
        try #require(r.status == 0, "\(r.stderr)")
        var bad = r.stdout
        withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { bad.replaceSubrange(24012 * 4..<24012 * 4 + 4, with: $0) }
        let chain = "meter", format = "f32le:48000:1"
        func figures(_ d: Data) throws -> [String: Double] {
            let r = try CLI.shell("\"$AUPIPE\" --in-format \(format) --stats=json \(chain) -o /dev/null", stdin: d)
            try #require(r.status == 0, "\(r.stderr)")
            let line = try #require(r.stderr.split(separator: "\n").last)
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return try #require(((object?["units"] as? [[String: Any]])?.first?["figures"]) as? [String: Double])
        }
        let clean = try figures(r.stdout), withNaN = try figures(bad)
        for key in ["truePeakDBTP", "samplePeakDBFS", "rmsDBFS", "integratedLUFS"] {
            let a = try #require(clean[key], "\(key)"), b = try #require(withNaN[key], "\(key) is null")
            #expect(abs(a - b) <= 0.01, "\(key) \(b), without the NaN \(a)")
        }
    }
}
