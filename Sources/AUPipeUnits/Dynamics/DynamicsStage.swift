import AUPipeFormats
import AUPipeGraph

/// What `compressor` and `gate` share once prepared: the processor, the side chain if any, and
/// the stream loop around them (blocks in, the look-ahead's tail flushed at the end).
package final class DynamicsStage<Law: GainLaw> {
    package let processor: DynamicsProcessor<Law>
    package let sidechain: Sidechain?
    package let channels: Int
    private let maxFrames: Int
    /// `maxFrames` frames of zeros: the stream after its end while the look-ahead drains.
    private let zeros: UnsafeMutablePointer<Float>

    package init(processor: DynamicsProcessor<Law>, sidechain: Sidechain?, maxFrames: Int) {
        self.processor = processor
        self.sidechain = sidechain
        channels = processor.channels
        self.maxFrames = maxFrames
        zeros = .allocate(capacity: maxFrames * channels)
        zeros.initialize(repeating: 0, count: maxFrames * channels)
    }

    deinit { zeros.deallocate() }

    package func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        processor.received(frames)
        var detect = input
        if let sidechain {
            try sidechain.read(frames)
            detect = UnsafePointer(sidechain.buffer)
        }
        return processor.process(input, detect: detect, frames: frames, into: output)
    }

    /// Flushes the look-ahead: zeros in (and the side chain's next frames) until every input
    /// frame has come out.
    package func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        var written = 0
        while processor.owesOutput && written < capacity {
            let n = Int(min(Int64(min(maxFrames, capacity - written)), processor.trim.owed + Int64(processor.lookahead)))
            var detect = UnsafePointer(zeros)
            if let sidechain {
                try sidechain.read(n)
                detect = UnsafePointer(sidechain.buffer)
            }
            // Zeros until the output is complete: the look-ahead still to fill, then what is owed.
            let pushed = Int(min(Int64(n), Int64(processor.trim.skip) + processor.trim.owed))
            written += processor.process(zeros, detect: detect, frames: pushed, into: output + written * channels)
        }
        if !processor.owesOutput {
            sidechain?.reader.reportLate()
            processor.series?.finish()
        }
        return (written, !processor.owesOutput)
    }
}
