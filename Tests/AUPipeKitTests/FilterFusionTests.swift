import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// Filter units in a row run as one (`FusingUnit`): the first takes the others in and runs all
/// their sections in one pass. The samples must be those of the units run one by one, bit for
/// bit, live changes included: a chain that measures peaks (`--stats`) does not fuse, so the
/// same words through both chains must give the same bits.
@Suite struct FilterFusionTests {
    static let registry = UnitRegistry(providers: [BuiltInUnits()])

    /// Six units, seven sections (the 3rd-order high-pass is two): groups of four with the
    /// float rounding between units at every place in a group.
    static let units: [[String]] = [
        ["equalizer", "100", "gain=-4", "q=0.7"], ["equalizer", "1k", "gain=3", "q=1"],
        ["highpass", "80", "order=3"], ["notch", "50"], ["equalizer", "8k", "gain=4", "q=0.7"], ["lowshelf", "200", "gain=-3"],
    ]

    /// Runs `words` as a chain in blocks of `block`, with `measurePeaks` (which turns fusion
    /// off); after `changeAt` frames, sets each live change on the unit at its index. Returns
    /// the output's bits and the chain's units.
    static func run(_ words: [[String]], channels: Int, block: Int, measurePeaks: Bool, changes: [(Int, String, Double)] = [],
                    changeAt: Int = 0) throws -> (bits: [UInt32], units: [any AudioUnit], chain: Chain) {
        let format = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: channels)
        let units = try words.map { try registry.descriptor(named: $0[0]).instantiate(Array($0.dropFirst())) }
        let chain = try Chain(stages: units.enumerated().map { ChainStage("\($0.offset)", $0.element) }, input: format,
                              maxFrames: block, measurePeaks: measurePeaks, allowBypass: false)
        // Tones, then silence: the states decay towards the flush threshold.
        let frames = 9600
        let input = TestSignals.tones(frames: frames / 2, rate: 48000, channels: channels) + [Float](repeating: 0, count: frames / 2 * channels)
        var out: [UInt32] = []
        var at = 0
        while at < frames {
            if at == changeAt {
                for (i, name, value) in changes { try (units[i] as! any LiveControllable).setParameter(name, to: .number(value)) }
            }
            let n = min(block, frames - at, at < changeAt ? changeAt - at : .max)
            let (p, count) = try input.withUnsafeBufferPointer { try chain.process($0.baseAddress! + at * channels, frames: n) }
            out += UnsafeBufferPointer(start: p, count: count * channels).map(\.bitPattern)
            at += n
        }
        return (out, units, chain)
    }

    @Test(arguments: [1, 2, 3], [7, 480])
    func unitsInARowAreTheUnitsOneByOne(channels: Int, block: Int) throws {
        let changes = [(1, "gain", -6.0), (4, "freq", 5000.0), (5, "q", 0.9)]
        let fused = try Self.run(Self.units, channels: channels, block: block, measurePeaks: false, changes: changes, changeAt: 2807)
        let alone = try Self.run(Self.units, channels: channels, block: block, measurePeaks: true, changes: changes, changeAt: 2807)
        #expect((fused.units[0] as! FilterUnit).takenIn.count == 5)
        #expect((alone.units[0] as! FilterUnit).takenIn.isEmpty)
        #expect(fused.bits.count == 9600 * channels)
        #expect(fused.bits == alone.bits)
        // Each unit still reads back its own live value, and counts its own frames.
        #expect((fused.units[4] as! any LiveControllable).parameterValue("freq") == "5000")
        #expect(fused.chain.stats.map(\.framesOut) == alone.chain.stats.map(\.framesOut))
    }

    /// Units on other channels, and `eq` with a preamp after a filter, are not taken in; an
    /// `eq` first leads the units after it, its preamp at its own input.
    @Test func onlyUnitsThatCanRunAsOneAreTakenIn() throws {
        let words = [["eq", "peak,1k,gain=6,q=2", "preamp=-3"], ["equalizer", "300", "gain=2"], ["notch", "60", "channels=1"],
                     ["highpass", "40", "channels=1"], ["eq", "peak,2k,gain=-2", "preamp=-1"], ["lowpass", "9k"]]
        let fused = try Self.run(words, channels: 2, block: 480, measurePeaks: false)
        let alone = try Self.run(words, channels: 2, block: 480, measurePeaks: true)
        #expect(fused.units.map { ($0 as! FilterUnit).takenIn.count } == [1, 0, 1, 0, 1, 0])
        #expect(fused.bits == alone.bits)
    }
}
