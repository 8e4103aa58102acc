import Testing
import AUPipeKit

/// `PerChannel`: N instances of a mono processor on N interleaved channels.
@Suite struct PerChannelTests {
    /// Adds its instance's index to every sample, and counts what it was given.
    final class AddIndex: ChannelProcessor {
        let index: Int
        var frames = 0, calls = 0

        init(_ index: Int) { self.index = index }

        func process(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
            for i in 0..<frames { samples[i] += Float(index) }
            self.frames += frames
            calls += 1
        }
    }

    /// Remembers the running sum of its channel: state stays with its own channel.
    final class RunningSum: ChannelProcessor {
        var sum: Float = 0

        func process(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
            for i in 0..<frames {
                sum += samples[i]
                samples[i] = sum
            }
        }
    }

    @Test(arguments: [1, 2, 3, 8])
    func eachInstanceSeesItsOwnChannel(channels: Int) throws {
        let pc = PerChannel(channels: channels, maxFrames: 5) { AddIndex($0) }
        let frames = 5
        // Sample (f, c) is 100 f + 10 c.
        let x = (0..<(frames * channels)).map { Float(100 * ($0 / channels) + 10 * ($0 % channels)) }
        var y = [Float](repeating: -1, count: x.count)
        try y.withUnsafeMutableBufferPointer { try pc.run(x, frames: frames, into: $0.baseAddress!) }
        #expect(y == x.indices.map { x[$0] + Float($0 % channels) })
        #expect(pc.instances.map(\.index) == Array(0..<channels))
        #expect(pc.instances.allSatisfy { $0.frames == frames && $0.calls == 1 })
    }

    @Test func stateStaysWithItsChannelAcrossBlocksAndInPlace() throws {
        let pc = PerChannel(channels: 2, maxFrames: 4) { _ in RunningSum() }
        var block: [Float] = [1, 10, 1, 10, 1, 10]
        try block.withUnsafeMutableBufferPointer { try pc.run($0.baseAddress!, frames: 3, into: $0.baseAddress!) }
        #expect(block == [1, 10, 2, 20, 3, 30])
        var next: [Float] = [1, 10]
        try next.withUnsafeMutableBufferPointer { try pc.run($0.baseAddress!, frames: 1, into: $0.baseAddress!) }
        #expect(next == [4, 40])
    }

    /// `denoise` over two channels is each channel denoised alone.
    @Test(arguments: ["denoise", "agc"])
    func aStereoPreprocessorIsTwoMonoOnes(unit: String) throws {
        let n = 4000
        let left = PreprocessUnitTests.noise(n, level: 0.05, seed: 7), right = PreprocessUnitTests.noise(n, level: 0.02, seed: 8)
        func run(_ samples: [Float], channels: Int) throws -> [Float] {
            let f = StreamFormat(encoding: .s16le, sampleRate: 16000, channels: channels)
            let r = try TestSignals.run([[unit]], TestSignals.wav(samples, f))
            return TestSignals.decode(TestSignals.audio(r.bytes, r.report), .s16le)
        }
        let stereo = try run(zip(left, right).flatMap { [$0, $1] }, channels: 2)
        let l = try run(left, channels: 1), r = try run(right, channels: 1)
        #expect(stereo == zip(l, r).flatMap { [$0, $1] })
    }
}
