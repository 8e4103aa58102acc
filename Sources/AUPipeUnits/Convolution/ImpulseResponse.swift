import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// An impulse response read from a file for `fir`: one array of taps per channel, at the
/// file's rate. Any container aupipe reads (CAF, WAV/RF64, AU), any encoding, decoded to float.
///
/// Read with plain `open`/`read` through AUPipeFormats' header reader and decoder (aupipe links
/// no Foundation; start-up time), once, in `prepare`.
package struct ImpulseResponse {
    /// The most taps a response may have: 2^22 (87 s at 48 kHz), far beyond any room.
    package static let maxFrames = 1 << 22

    /// Taps per channel (all of one length, ≥ 1).
    package var channels: [[Float]]
    /// Hz.
    package var sampleRate: Int

    package var length: Int { channels[0].count }

    /// Reads `path`; errors name the path and what is wrong, prefixed `fir: `.
    package static func read(_ path: String) throws -> ImpulseResponse {
        let file = try ResponseFile(path)
        defer { file.close() }
        let decoder: StreamDecoder, source: any ByteSource
        do { (decoder, source) = try StreamDecoder.open(file, rawFormat: nil) } catch let e as AUPipeError {
            // The reader's message names the file; its hint about --in-format is for the main input.
            var message = e.message
            if let hint = message.firstRange(of: "; for raw PCM") {
                message = String(message[..<hint.lowerBound]) + "; give the response as a CAF, WAV or AU file"
            }
            throw AUPipeError(e.status, "fir: \(message)", cause: e.cause)
        }
        let format = decoder.format
        let frameBytes = decoder.frameBytes
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var decoderState = decoder
        while true {
            let allowed = decoderState.allowed(chunk.count)
            if allowed == 0 { break }
            let n: Int
            do {
                n = try chunk.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<allowed])) }
            } catch let e as AUPipeError { throw e.prefixed("fir") }
            if n == 0 { break }
            decoderState.take(n)
            bytes += chunk[0..<n]
            guard bytes.count / frameBytes <= maxFrames else {
                throw AUPipeError.data("fir: \(path) holds more than \(maxFrames) frames; an impulse response is at most that long")
            }
        }
        let frames = bytes.count / frameBytes
        guard frames >= 1 else { throw AUPipeError.data("fir: \(path) holds no audio; an impulse response needs at least one frame") }
        var interleaved = [Float](repeating: 0, count: frames * format.channels)
        bytes.withUnsafeBytes { b in
            interleaved.withUnsafeMutableBufferPointer { decoderState.decode(b.baseAddress!, frames: frames, into: $0.baseAddress!) }
        }
        let c = format.channels
        let channels = (0..<c).map { ch in (0..<frames).map { interleaved[$0 * c + ch] } }
        return ImpulseResponse(channels: channels, sampleRate: format.sampleRate)
    }

    /// The response at `rate`: resampled by the default engine (round(N × rate / file rate)
    /// taps, zero delay) and multiplied by file rate / `rate`, so that its gain (the sum of its
    /// taps at 0 Hz, and any band below both Nyquist frequencies) is kept.
    package func resampled(to rate: Int) throws -> ImpulseResponse {
        guard rate != sampleRate else { return self }
        let c = channels.count, n = length
        let block = 4096
        let resampler = try Resampler(channels: c, from: sampleRate, to: rate, maxFrames: block)
        var interleaved = [Float](repeating: 0, count: n * c)
        for ch in 0..<c { for i in 0..<n { interleaved[i * c + ch] = channels[ch][i] } }
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: (resampler.maxOutputFrames(forInput: block) + 1) * c)
        try interleaved.withUnsafeBufferPointer { x in
            try buffer.withUnsafeMutableBufferPointer { b in
                var at = 0
                while at < n {
                    let frames = min(block, n - at)
                    let made = try resampler.process(x.baseAddress! + at * c, frames: frames, into: b.baseAddress!)
                    out += b[0..<(made * c)]
                    at += frames
                }
                var done = false
                while !done {
                    let (made, finished) = try resampler.drain(into: b.baseAddress!, capacity: b.count / c)
                    out += b[0..<(made * c)]
                    done = finished
                }
            }
        }
        let frames = out.count / c
        guard frames >= 1 else { return ImpulseResponse(channels: Array(repeating: [0], count: c), sampleRate: rate) }
        let scale = Float(Double(sampleRate) / Double(rate))
        let result = (0..<c).map { ch in (0..<frames).map { out[$0 * c + ch] * scale } }
        return ImpulseResponse(channels: result, sampleRate: rate)
    }

    /// Every tap multiplied by `factor`.
    package func scaled(by factor: Float) -> ImpulseResponse {
        ImpulseResponse(channels: channels.map { $0.map { $0 * factor } }, sampleRate: sampleRate)
    }

    /// The largest |tap| of any channel.
    package var peak: Float { channels.map { $0.reduce(0) { max($0, abs($1)) } }.max() ?? 0 }

    /// The largest Σ tap² of any channel (in double).
    package var energy: Double { channels.map { $0.reduce(0.0) { $0 + Double($1) * Double($1) } }.max() ?? 0 }
}

/// A response file opened for reading, as a `ByteSource` for the header reader.
private final class ResponseFile: ByteSource {
    package let name: String
    private var fd: Int32

    package init(_ path: String) throws {
        name = path
        fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw AUPipeError.noInput("fir: cannot open the impulse response \(path): \(reason); give the path of a CAF, WAV or AU file")
        }
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw AUPipeError.io("cannot read \(name): \(String(cString: strerror(errno)))")
        }
    }

    package func close() {
        if fd >= 0 { _ = Glibc.close(fd); fd = -1 }
    }
}
