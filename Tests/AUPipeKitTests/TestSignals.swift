import AUPipeKit
#if canImport(Glibc)
import Glibc
#endif

/// Deterministic test material and an in-process way to run a chain.
enum TestSignals {
    /// A sum of sines with a slow envelope, interleaved, `channels` slightly different per channel.
    static func tones(frames: Int, rate: Int, channels: Int, level: Float = 0.5) -> [Float] {
        var out = [Float](repeating: 0, count: frames * channels)
        for i in 0..<frames {
            let t = Double(i) / Double(rate)
            for c in 0..<channels {
                let f = 440.0 * Double(c + 1) + 3.7
                let v = sin(2 * .pi * f * t) * 0.6 + sin(2 * .pi * 1234.5 * t + Double(c)) * 0.3
                out[i * channels + c] = level * Float(v * (0.5 + 0.5 * cos(2 * .pi * 0.7 * t)))
            }
        }
        return out
    }

    /// `samples` encoded as `encoding`.
    static func encode(_ samples: [Float], _ encoding: SampleEncoding) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: samples.count * encoding.bytesPerSample)
        samples.withUnsafeBufferPointer { s in
            bytes.withUnsafeMutableBytes { b in _ = SampleCodec(encoding).encode(s.baseAddress!, count: s.count, into: b.baseAddress!) }
        }
        return bytes
    }

    /// `bytes` decoded from `encoding`.
    static func decode(_ bytes: [UInt8], _ encoding: SampleEncoding) -> [Float] {
        let count = bytes.count / encoding.bytesPerSample
        var out = [Float](repeating: 0, count: count)
        bytes.withUnsafeBytes { b in
            out.withUnsafeMutableBufferPointer { o in SampleCodec(encoding).decode(b.baseAddress!, count: count, into: o.baseAddress!) }
        }
        return out
    }

    /// A WAV stream (declared size) holding `samples` in `format`.
    static func wav(_ samples: [Float], _ format: StreamFormat) -> [UInt8] {
        let data = encode(samples, format.encoding)
        return WAVFile.header(format, dataBytes: UInt64(data.count), channelMask: nil) + data
    }

    /// Runs `chain` over `input` in memory. `block` sets --block in frames; `chunk` limits every
    /// read to that many bytes, as a slow pipe would.
    static func run(_ chain: [[String]], _ input: [UInt8], block: Int? = nil, chunk: Int = .max,
                    configure: (inout PipelineOptions) -> Void = { _ in }) throws -> (bytes: [UInt8], report: RunReport) {
        var options = PipelineOptions()
        if let block { options.block = .frames(block) }
        configure(&options)
        let sink = MemorySink()
        let report = try Pipeline(chain: chain, options: options).run(source: MemorySource(input, chunk: chunk), sink: sink)
        return (sink.bytes, report)
    }

    /// The audio bytes of a stream aupipe wrote (its header stripped).
    static func audio(_ bytes: [UInt8], _ report: RunReport) -> [UInt8] {
        Array(bytes.dropFirst(report.output.header(dataBytes: nil).count))
    }
}
