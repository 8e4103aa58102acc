import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// The chain's frame services: `FixedFrames` (fixed frames, zero-padded last frame, latency
/// trimmed, exact length) and `LatencyTrim` on its own.
@Suite struct FixedFramesTests {
    /// A DSP of fixed frames that delays by `delay` frames (a multiple of nothing in
    /// particular) and counts the frames it runs, over `FixedFrames`.
    final class DelayingDSP {
        let frames: FixedFrames
        let delay: Int
        private var history: [Float]
        var runs = 0

        init(frameFrames: Int, delay: Int, reportLater: Bool = false) {
            frames = FixedFrames(frameFrames: frameFrames, channels: 1, outputChannels: 1, latency: reportLater ? 0 : delay)
            self.delay = delay
            history = [Float](repeating: 0, count: delay)
        }

        /// One frame: output = input `delay` frames earlier.
        func run() {
            for f in 0..<frames.frameFrames {
                history.append(frames.frame[f])
                frames.frameOut[f] = history.removeFirst()
            }
            runs += 1
        }

        func stream(_ x: [Float], block: Int, capacity: Int) -> [Float] {
            var out: [Float] = []
            var buffer = [Float](repeating: .nan, count: max(capacity, frames.maxOutput(forInput: block)))
            var i = 0
            while i < x.count {
                let n = min(block, x.count - i)
                let w = x[i..<(i + n)].withUnsafeBufferPointer { input in
                    buffer.withUnsafeMutableBufferPointer { frames.push(input.baseAddress!, frames: n, into: $0.baseAddress!) { run() } }
                }
                out += buffer[0..<w]
                i += n
            }
            var done = false
            while !done {
                let r = buffer.withUnsafeMutableBufferPointer { frames.drain(into: $0.baseAddress!, capacity: capacity) { run() } }
                out += buffer[0..<r.frames]
                done = r.done
            }
            return out
        }
    }

    @Test(arguments: [1, 7, 64, 1000])
    func anImpulseStaysOnItsFrameAndTheLengthIsExact(block: Int) {
        var x = [Float](repeating: 0, count: 1001)
        x[0] = 1; x[333] = 0.5; x[1000] = -1
        let dsp = DelayingDSP(frameFrames: 64, delay: 100)
        let y = dsp.stream(x, block: block, capacity: 64)
        #expect(y == x)
        // 1001 frames and 100 of latency: 1101 frames of output, 18 frames of 64, the last padded.
        #expect(dsp.runs == 18)
    }

    @Test func aLatencyLearnedAfterTheFirstFrameIsTrimmedToo() {
        let x = (0..<300).map { Float($0 + 1) }
        let dsp = DelayingDSP(frameFrames: 32, delay: 40, reportLater: true)
        var first = true
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 400)
        let w = x.withUnsafeBufferPointer { input in
            buffer.withUnsafeMutableBufferPointer { b in
                dsp.frames.push(input.baseAddress!, frames: x.count, into: b.baseAddress!) {
                    dsp.run()
                    if first { dsp.frames.setLatency(40); first = false }
                }
            }
        }
        out += buffer[0..<w]
        var done = false
        while !done {
            let r = buffer.withUnsafeMutableBufferPointer { dsp.frames.drain(into: $0.baseAddress!, capacity: 32) { dsp.run() } }
            out += buffer[0..<r.frames]
            done = r.done
        }
        #expect(out == x)
    }

    @Test func theLastFrameIsPaddedWithZeros() {
        let frames = FixedFrames(frameFrames: 8, channels: 2, outputChannels: 2)
        var seen: [Float] = []
        var out = [Float](repeating: 0, count: 64)
        let x: [Float] = [1, 2, 3, 4, 5, 6]
        let w = out.withUnsafeMutableBufferPointer { o in
            x.withUnsafeBufferPointer { frames.push($0.baseAddress!, frames: 3, into: o.baseAddress!) { } }
        }
        #expect(w == 0)
        let r = out.withUnsafeMutableBufferPointer { o in
            frames.drain(into: o.baseAddress!, capacity: 8) {
                seen = Array(UnsafeBufferPointer(start: frames.frame, count: 16))
                frames.frameOut.update(from: frames.frame, count: 16)
            }
        }
        #expect(seen == x + [Float](repeating: 0, count: 10))
        #expect(r.frames == 3 && r.done)
        #expect(Array(out[0..<6]) == x)
    }

    /// Planar frames: channel c's samples in plane c; the output planes interleaved back.
    @Test(arguments: [1, 5, 16])
    func planarFramesGatherAndEmitByChannel(block: Int) {
        let frames = FixedFrames(frameFrames: 4, channels: 2, outputChannels: 2, latency: 1, layout: .planar)
        let x: [Float] = (0..<10).flatMap { [Float($0), Float(-$0)] }
        var planesSeen: [[Float]] = []
        var history: [Float] = [0, 0]
        func run() {
            planesSeen.append(Array(UnsafeBufferPointer(start: frames.plane(0), count: 4)))
            // Delays both channels by one frame.
            for c in 0..<2 {
                let p = frames.plane(c), q = frames.outputPlane(c)
                q[0] = history[c]
                for f in 1..<4 { q[f] = p[f - 1] }
                history[c] = p[3]
            }
        }
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 64)
        var i = 0
        while i < 10 {
            let n = min(block, 10 - i)
            let w = x[(2 * i)..<(2 * (i + n))].withUnsafeBufferPointer { input in
                buffer.withUnsafeMutableBufferPointer { frames.push(input.baseAddress!, frames: n, into: $0.baseAddress!) { run() } }
            }
            out += buffer[0..<(2 * w)]
            i += n
        }
        let r = buffer.withUnsafeMutableBufferPointer { frames.drain(into: $0.baseAddress!, capacity: 8) { run() } }
        out += buffer[0..<(2 * r.frames)]
        #expect(r.done)
        #expect(out == x)
        #expect(planesSeen.first == [0, 1, 2, 3])
        #expect(planesSeen.last == [8, 9, 0, 0])
    }

    @Test func aTrimOwedALengthByRuleKeepsNothingBeyondIt() {
        var trim = LatencyTrim()
        trim.wrote(10)
        trim.owe(upTo: 13)
        #expect(trim.owed == 3)
        let k = trim.keep(5)
        #expect(k.from == 0 && k.count == 3)
        #expect(!trim.owesOutput)
        var late = LatencyTrim(latency: 3)
        late.received(4)
        #expect(late.keep(2) == (from: 2, count: 0))
        #expect(late.keep(4) == (from: 1, count: 3))
        #expect(late.keep(4) == (from: 0, count: 1))
        #expect(late.owed == 0)
    }
}
