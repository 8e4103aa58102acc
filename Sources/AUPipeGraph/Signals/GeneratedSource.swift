import AUPipeFormats

/// A byte source of f32le frames rendered by a signal generator, `frames` long: what
/// `aupipe gen` feeds into the pipeline in place of an input stream.
package final class GeneratedSource: ByteSource {
    package let name: String
    private let generator: any SignalGenerator
    private let channels: Int
    private let totalFrames: Int64
    private var position: Int64 = 0
    /// Frames rendered per read at most; the scratch buffer holds that many.
    private let chunk = 4096
    private let scratch: UnsafeMutablePointer<Float>

    package init(_ generator: any SignalGenerator, channels: Int, frames: Int64, name: String) {
        self.generator = generator
        self.channels = channels
        totalFrames = frames
        self.name = name
        scratch = .allocate(capacity: chunk * channels)
    }

    deinit { scratch.deallocate() }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let frameBytes = 4 * channels
        let frames = Int(min(Int64(min(chunk, buffer.count / frameBytes)), totalFrames - position))
        guard frames > 0 else { return 0 }
        generator.render(into: scratch, frames: frames, start: position, channels: channels)
        for i in 0..<(frames * channels) {
            buffer.storeBytes(of: scratch[i].bitPattern.littleEndian, toByteOffset: i * 4, as: UInt32.self)
        }
        position += Int64(frames)
        return frames * frameBytes
    }
}
