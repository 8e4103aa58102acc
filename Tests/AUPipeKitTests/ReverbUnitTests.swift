import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `reverb`: its impulse response decays with the RT60 that help states (measured on the
/// Schroeder decay of the low-frequency part), channels are as asked, output is deterministic.
@Suite struct ReverbUnitTests {
    static func format(_ channels: Int, rate: Int = 16000) -> StreamFormat { StreamFormat(encoding: .f32le, sampleRate: rate, channels: channels) }

    /// The wet impulse response of `reverb ARGS wet-only=1`, `frames` long, channel 0.
    static func impulseResponse(_ args: [String], frames: Int, rate: Int = 16000) throws -> [Double] {
        var impulse = [Float](repeating: 0, count: frames)
        impulse[0] = 1
        return try UnitHarness(["reverb"] + args + ["wet-only=1"], format: format(1, rate: rate), block: 4096).run(impulse).map(Double.init)
    }

    /// RT60 from the Schroeder backward integral of `ir` low-passed at `cutoff` Hz (three
    /// one-pole sections; the loops' damping barely acts there): 3 × the time from −5 to −25 dB
    /// (a T20, extrapolated to 60 dB).
    static func schroederRT60(_ ir: [Double], rate: Int, cutoff: Double = 150) -> Double {
        var x = ir
        let a = 1 - exp(-2 * Double.pi * cutoff / Double(rate))
        for _ in 0..<3 {
            var s = 0.0
            for i in x.indices { s += a * (x[i] - s); x[i] = s }
        }
        var energy = [Double](repeating: 0, count: x.count)
        var sum = 0.0
        for i in x.indices.reversed() { sum += x[i] * x[i]; energy[i] = sum }
        let total = energy[0]
        func time(atDB level: Double) -> Double {
            let threshold = total * pow(10, level / 10)
            return Double(energy.firstIndex { $0 < threshold } ?? energy.count) / Double(rate)
        }
        return 3 * (time(atDB: -25) - time(atDB: -5))
    }

    @Test(arguments: [(25.0, 100.0, 50.0), (50.0, 100.0, 50.0), (75.0, 100.0, 0.0), (50.0, 40.0, 100.0), (90.0, 70.0, 50.0), (0, 100, 0), (10, 100, 0), (25, 100, 0), (50, 100, 0), (50, 10, 0), (25, 40, 0)])
    func theImpulseResponseDecaysWithTheStatedRT60Within20Percent(reverberance: Double, roomScale: Double, hfDamping: Double) throws {
        let stated = ReverbUnit.rt60(reverberance: reverberance, roomScale: roomScale)
        let rate = 16000
        let ir = try Self.impulseResponse(["\(formatNumber(reverberance))", "room-scale=\(formatNumber(roomScale))", "hf-damping=\(formatNumber(hfDamping))"],
                                          frames: Int(stated * 1.2 * Double(rate)), rate: rate)
        let measured = Self.schroederRT60(ir, rate: rate)
        #expect(abs(measured / stated - 1) < 0.2, "reverberance \(reverberance) %, room-scale \(roomScale) %: stated \(stated) s, measured \(measured) s")
    }

    @Test func helpStatesTheFiguresTheFormulaGives() throws {
        let details = ReverbUnit.descriptor.details
        for (r, text) in [(0.0, "0.3"), (25, "0.76"), (50, "1.84"), (75, "4.45"), (100, "10.8")] {
            let rt = ReverbUnit.rt60(reverberance: r, roomScale: 100)
            #expect(details.contains("\(text) s at") && abs(rt / Double(text)! - 1) < 0.02, "reverberance \(r) %: \(rt) s, help says \(text) s")
        }
        let h = try UnitHarness(["reverb", "50"], format: Self.format(1))
        #expect(h.statsNote == "RT60 1.84 s at low frequencies")
    }

    @Test func channelsAreAsAsked() throws {
        let mono = try UnitHarness(["reverb"], format: Self.format(1))
        #expect(mono.format.channels == 1)
        let widened = try UnitHarness(["reverb", "stereo=1"], format: Self.format(1))
        #expect(widened.format.channels == 2)
        var impulse = [Float](repeating: 0, count: 4000)
        impulse[0] = 1
        let out = try widened.run(impulse)
        let left = stride(from: 0, to: out.count, by: 2).map { out[$0] }, right = stride(from: 1, to: out.count, by: 2).map { out[$0] }
        #expect(left[0] == 1 && right[0] == 1, "the dry impulse on both")
        #expect(left != right, "stereo depth decorrelates the two")
        let flat = try UnitHarness(["reverb", "stereo=1", "stereo-depth=0"], format: Self.format(1)).run(impulse)
        #expect(stride(from: 0, to: flat.count, by: 2).allSatisfy { flat[$0] == flat[$0 + 1] }, "depth 0: the same on both")
        #expect(throws: AUPipeError.self) { try UnitHarness(["reverb", "stereo=1"], format: Self.format(6)) }
        #expect(try UnitHarness(["reverb"], format: Self.format(6)).format.channels == 6)
    }

    @Test func wetOnlyPreDelayAndDeterminism() throws {
        let a = try Self.impulseResponse(["50"], frames: 6000)
        #expect(a[0] == 0, "wet only: no dry impulse")
        #expect(try Self.impulseResponse(["50"], frames: 6000) == a, "deterministic")
        let delayed = try Self.impulseResponse(["50", "pre-delay=10ms"], frames: 6000)
        #expect(Array(delayed.prefix(160)).allSatisfy { $0 == 0 } && Array(delayed.dropFirst(160)) == Array(a.prefix(6000 - 160)),
                "pre-delay shifts the response by 10 ms (160 frames at 16 kHz)")
    }

    @Test func extendKeepsTheTail() throws {
        let h = try UnitHarness(["reverb", "0", "extend=1"], format: Self.format(1))
        _ = try h.run([1] + [Float](repeating: 0, count: 99))
        // Reverberance 0: g = 0.3; the longest comb, 1617 x 16000/44100 = 587 frames, loses 120 dB in
        // 587 x ln(1e-6)/ln(0.3) = 6735.8, so 6736 frames.
        #expect(h.framesOut == 100 + 6736)
    }

    @Test func wetGainIsLive() throws {
        let h = try UnitHarness(["reverb"], format: Self.format(1))
        try (h.unit as? ReverbUnit)?.setParameter("wet-gain", to: .number(-6))
        #expect(h.get("wet-gain") == "-6")
    }
}
