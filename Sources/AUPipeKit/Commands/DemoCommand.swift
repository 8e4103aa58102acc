#if canImport(Glibc)
import Glibc
#endif

/// `aupipe demo`: runs a demonstration chain over a built-in clip and writes a WAV that plays.
///
/// The clip is 3 s of 44.1 kHz stereo s16: a C major arpeggio with a decaying envelope, the
/// left and right channels a fifth apart. It goes through
/// `resample 48000 : gain -3 : mute at=2-2.5 ramp=20ms`, so the result shows rate conversion,
/// level change and a click-free scheduled mute.
public enum DemoCommand {
    public static let chain = [["resample", "48000"], ["gain", "-3"], ["mute", "at=2-2.5", "ramp=20ms"]]

    public static func run(output: String, console: any Console) throws -> ExitStatus {
        let clip = builtInClip()
        var options = PipelineOptions()
        options.output = output
        options.container = ContainerKind(pathExtensionOf: output)
        options.stats = .text
        let pipeline = try Pipeline(chain: chain, options: options)
        let file = OutputFile(output)
        return AUPipeCommand.writing(file, console: console) {
            let report = try pipeline.run(source: MemorySource(clip, name: "built-in clip"), openSink: file.open)
            StatsPrinter.print(report, mode: .text, console: console)
            let text = chain.map { $0.joined(separator: " ") }.joined(separator: " : ")
            console.err("aupipe: demo: wrote \(output == "-" ? "stdout" : output) (\(report.output.container.rawValue) \(report.output.format.spec), \(report.framesOut) frames) from a built-in 3 s clip through: \(text)")
            return .ok
        }
    }

    /// The built-in clip as a WAV stream (s16le, 44100 Hz, 2 channels, 3 s). Deterministic.
    public static func builtInClip() -> [UInt8] {
        let rate = 44_100, frames = rate * 3
        let format = StreamFormat(encoding: .s16le, sampleRate: rate, channels: 2)
        var samples = [Float](repeating: 0, count: frames * 2)
        let notes: [Double] = [261.63, 329.63, 392.00, 523.25, 392.00, 329.63]
        let noteFrames = frames / notes.count
        for i in 0..<frames {
            let note = min(i / noteFrames, notes.count - 1)
            let t = Double(i - note * noteFrames) / Double(rate)
            let envelope = 0.5 * exp(-3 * t)
            let f = notes[note]
            samples[2 * i] = Float(envelope * sin(2 * Double.pi * f * t))
            samples[2 * i + 1] = Float(envelope * sin(2 * Double.pi * f * 1.5 * t))
        }
        var bytes = WAVFile.header(format, dataBytes: UInt64(frames * 4), channelMask: nil)
        var data = [UInt8](repeating: 0, count: frames * 4)
        samples.withUnsafeBufferPointer { s in
            data.withUnsafeMutableBytes { d in _ = SampleCodec(.s16le).encode(s.baseAddress!, count: frames * 2, into: d.baseAddress!) }
        }
        bytes += data
        return bytes
    }
}
