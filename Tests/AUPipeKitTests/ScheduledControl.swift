import Foundation
import TestScratch
import AUPipeKit

/// A run under live control, in process and without a clock: the stream comes from memory,
/// one block per read, and control lines (`set gain.db -6`) are run on the pipeline when the
/// reading reaches given frames, between two blocks, where the control FIFO's lines are run.
/// The run has a `--control` FIFO of its own (in a temporary directory, never written to), so
/// that, as under `--control`, no unit is bypassed.
struct ScheduledControl {
    /// Control lines and the stream frame before which they run (a multiple of the block).
    var commands: [(frame: Int, lines: [String])]

    struct Result {
        /// The output's samples, decoded (s16 input: s16 values as Int16).
        var output: [Float]
        /// Every reply, in order (`ok gain.db -6`, `error: ...`).
        var replies: [String]
        var report: RunReport

        /// The output as 16-bit integers (for an s16 stream).
        var s16: [Int16] { output.map { Int16(($0 * 32768).rounded()) } }
    }

    /// Runs `chain` over `samples` in `format`, `block` frames per block and per read.
    func run(_ chain: [[String]], _ samples: [Float], format: StreamFormat, block: Int,
             registry: UnitRegistry = .standard) throws -> Result {
        let dir = TestScratch.root.appendingPathComponent("aupipe-control-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = PipelineOptions()
        options.block = .frames(block)
        options.control = dir.appendingPathComponent("ctl").path
        // Rounded plainly: under control no unit is bypassed, so a 16-bit stream through a gain
        // at 0 dB is dithered by default, and these checks read exact sample values.
        options.dither = .off
        let pipeline = try Pipeline(chain: chain, options: options, registry: registry)
        let wav = TestSignals.wav(samples, format)
        let audioBytes = samples.count * format.encoding.bytesPerSample
        var replies: [String] = []
        var pending = commands.sorted { $0.frame < $1.frame }
        let source = BlockSource(wav, headerBytes: wav.count - audioBytes, blockBytes: block * format.channels * format.encoding.bytesPerSample) { offset in
            let frame = offset / (format.channels * format.encoding.bytesPerSample)
            while let next = pending.first, next.frame <= frame {
                pending.removeFirst()
                replies += next.lines.map { pipeline.control($0) }
            }
        }
        let sink = MemorySink()
        let report = try pipeline.run(source: source, sink: sink)
        let output = TestSignals.decode(TestSignals.audio(sink.bytes, report), report.output.format.encoding)
        return Result(output: output, replies: replies, report: report)
    }
}

/// Bytes in memory read as a paced writer sends them: the header as asked, then one block per
/// read; before each read of audio, `beforeRead` is told the audio bytes read so far.
final class BlockSource: ByteSource {
    private let bytes: [UInt8]
    private let headerBytes: Int
    private let blockBytes: Int
    private let beforeRead: (Int) -> Void
    private var position = 0
    let name = "memory"

    init(_ bytes: [UInt8], headerBytes: Int, blockBytes: Int, beforeRead: @escaping (Int) -> Void) {
        self.bytes = bytes
        self.headerBytes = headerBytes
        self.blockBytes = blockBytes
        self.beforeRead = beforeRead
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let limit = position < headerBytes ? headerBytes - position : blockBytes
        if position >= headerBytes { beforeRead(position - headerBytes) }
        let n = min(buffer.count, bytes.count - position, limit)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: n) }
        position += n
        return n
    }
}
