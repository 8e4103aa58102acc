import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `echo`: the impulse response is the formula's, the length is kept or extended to −120 dB,
/// feedback stays below 1, and live changes glide.
@Suite struct EchoUnitTests {
    static func format(_ channels: Int, rate: Int = 48000) -> StreamFormat { StreamFormat(encoding: .f32le, sampleRate: rate, channels: channels) }

    /// The impulse response of y = (1 − mix) x + mix w, w[n] = x[n − D] + feedback w[n − D].
    static func formula(frames: Int, delay: Int, feedback: Double, mix: Double) -> [Double] {
        var w = [Double](repeating: 0, count: frames), y = [Double](repeating: 0, count: frames)
        for n in 0..<frames {
            let x: Double = n == 0 ? 1 : 0
            w[n] = n >= delay ? ((n == delay ? 1 : 0) + feedback * w[n - delay]) : 0
            y[n] = (1 - mix) * x + mix * w[n]
        }
        return y
    }

    @Test(arguments: [(100, 0.4, 0.3), (37, 0.9, 1.0), (1, 0.5, 0.5), (480, 0.0, 0.7)])
    func theImpulseResponseIsTheFormulaWithin120dB(delay: Int, feedback: Double, mix: Double) throws {
        let frames = 20_000
        var impulse = [Float](repeating: 0, count: frames)
        impulse[0] = 1
        let y = try UnitHarness(["echo", "\(delay)f", "feedback=\(feedback)", "mix=\(mix)"], format: Self.format(1), block: 333).run(impulse)
        let ideal = Self.formula(frames: frames, delay: delay, feedback: feedback, mix: mix)
        #expect(y.count == frames)
        let error = zip(y, ideal).map { abs(Double($0) - $1) }.max()!
        #expect(20 * log10(max(error, 1e-30)) < -120, "largest difference \(20 * log10(error)) dB")
    }

    @Test func everyChannelEchoesOnItsOwn() throws {
        var input = [Float](repeating: 0, count: 2 * 300)
        input[0] = 1
        input[2 * 5 + 1] = -1
        let y = try UnitHarness(["echo", "100f", "feedback=0.5", "mix=0.5"], format: Self.format(2)).run(input)
        #expect(y[0] == 0.5 && y[200] == 0.5 && y[400] == 0.25 && y[1] == 0)
        #expect(y[11] == -0.5 && y[211] == -0.5 && y[411] == -0.25 && y[210] == 0)
    }

    @Test func extendKeepsTheTailToMinus120dB() throws {
        let h = try UnitHarness(["echo", "10f", "feedback=0.5", "extend=1"], format: Self.format(1))
        _ = try h.run([1] + [Float](repeating: 0, count: 99))
        // ceil(log(1e-6) / log(0.5)) = 20 echoes after the stream: 10 x (1 + 20) frames.
        #expect(h.framesOut == 100 + 210)
        let kept = try UnitHarness(["echo", "10f", "feedback=0.5"], format: Self.format(1))
        _ = try kept.run([Float](repeating: 0, count: 100))
        #expect(kept.framesOut == 100)
    }

    @Test func theLowpassDullsEachRepeat() throws {
        var impulse = [Float](repeating: 0, count: 4000)
        impulse[0] = 1
        let y = try UnitHarness(["echo", "1000f", "feedback=0.9", "mix=1", "lowpass=1k"], format: Self.format(1)).run(impulse)
        // The first echo is the input; the second the first through the low-pass: spread, with the same sum (DC gain 1).
        #expect(y[1000] == 1)
        let second = y[2000..<3000].map(Double.init)
        #expect(second.max()! < 0.9 * 0.2, "the repeat is spread by the low-pass: peak \(second.max()!)")
        #expect(abs(second.reduce(0, +) - 0.9) < 1e-3, "its DC gain is the feedback: \(second.reduce(0, +))")
    }

    @Test func feedbackMustBeBelowOne() throws {
        #expect {
            _ = try UnitHarness(["echo", "250ms", "feedback=1"], format: Self.format(1))
        } throws: { ($0 as? AUPipeError)?.message == "echo: feedback=1 must be below 1: each echo is feedback times the one before, so at 1 or more they never die away; use e.g. 0.4, at most 0.999" }
        #expect {
            _ = try UnitHarness(["echo", "250ms", "lowpass=30k"], format: Self.format(1))
        } throws: { ($0 as? AUPipeError)?.message.contains("is not below half the rate") == true }
    }

    @Test func liveChangesGlide() throws {
        let h = try UnitHarness(["echo", "100f", "feedback=0", "mix=0"], format: Self.format(1), block: 64)
        try h.push([Float](repeating: 0.5, count: 1000))
        let unit = try #require(h.unit as? EchoUnit)
        try unit.setParameter("mix", to: .number(1))
        let out = try h.push([Float](repeating: 0.5, count: 1000))
        // A constant 0.5 with feedback 0 gives w = 0.5: the mix moves from x to w, both 0.5, so nothing moves at all.
        #expect(out.allSatisfy { abs($0 - 0.5) < 1e-6 })
        try unit.setParameter("delay", to: .duration(.frames(50)))
        try unit.setParameter("feedback", to: .number(0.5))
        #expect(h.get("delay") == "50f" && h.get("feedback") == "0.5" && h.get("mix") == "1")
        let later = try h.push([Float](repeating: 0.5, count: 2000))
        let steps = zip(later, later.dropFirst()).map { abs($1 - $0) }
        #expect(steps.max()! < 0.01, "no jump: largest step \(steps.max()!)")
        #expect(abs(later.last! - 1) < 1e-3, "w settles at 0.5 / (1 - 0.5) = 1: \(later.last!)")
    }
}

/// The tails `extend=1` keeps are the same samples whatever the block size.
@Suite struct ExtendedTailBlockSizeTests {
    @Test(arguments: [["delay", "10f,2.5f", "extend=1"], ["echo", "37f", "feedback=0.6", "lowpass=2k", "extend=1"],
                      ["reverb", "20", "room-scale=20", "pre-delay=1ms", "extend=1"]])
    func tailsDoNotDependOnTheBlockSize(words: [String]) throws {
        let format = StreamFormat(encoding: .f32le, sampleRate: 8000, channels: 2)
        let input = TestSignals.tones(frames: 901, rate: 8000, channels: 2)
        var reference: [UInt32]?
        for block in [1, 7, 480, 4096] {
            let h = try UnitHarness(words, format: format, block: block)
            let out = try h.run(input).map(\.bitPattern)
            #expect(h.framesOut > 901, "\(words.joined(separator: " ")): the tail is kept")
            if let reference { #expect(out == reference, "\(words.joined(separator: " ")) at block \(block)") } else { reference = out }
        }
    }
}
