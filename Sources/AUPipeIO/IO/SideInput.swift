import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// A side input of the chain (a `mix` bus, `aec`'s reference): a file, FIFO or `<(command)`
/// read and delivered in the stream's format, frame-aligned with the stream's timeline.
///
/// Policy (`RealTimePolicy`, as its unit's `live=` decides it): a regular file, or any input
/// in a run that is not real time, is read with blocking reads: it delivers every frame, in
/// order, and the bytes are the same on every run. A FIFO or pipe in real time is read without
/// blocking: each request waits at most `wait` for data; what is missing is silence, and as
/// many late frames are dropped when they come, so the input never drifts from the stream's
/// timeline. Late frames are counted (`underrunFrames`, for `--stats`) and said on stderr once
/// at the end (`reportLate`).
///
/// Ends: a pipe or FIFO ends when its writer has gone (a `<(command)` that failed ends at once);
/// a FIFO that no writer has opened is silence in real time, and ends when the stream does. SIGINT/SIGTERM end every side input: no wait outlives a stop signal. An input
/// that ends without any audio is announced once on stderr.
package final class SideInput: SideInputStream {
    package let spec: BusSpec
    package let index: Int
    private let target: StreamFormat
    private let live: Bool
    /// The policy the conversion's stages are prepared with (the resampler's choice).
    private let realTime: RealTimePolicy
    /// Whether the late frames have been said on stderr.
    private var reportedLate = false
    /// Set by `streamHasEnded`: a FIFO no writer has opened by now never will be read.
    private var streamEnded = false
    /// Whether short reads still become silence (a real-time input, until `streamHasEnded`).
    private var liveNow: Bool { live && !streamEnded }
    private let waitMilliseconds: Int32
    private let file: SideInputFile
    /// The input's audio after its header (the main input's reader: the bytes the header
    /// declares, decoded), once the header is known.
    private var decoder: StreamDecoder?
    private var header: StreamHeader? { decoder?.header }
    private var chain: Chain?
    /// Raw bytes read but not yet decoded (the header first, then partial frames).
    private var pending: [UInt8]
    private var pendingCount = 0
    /// Audio bytes the header declares that are not decoded yet, those in `pending` included
    /// (nil: to the end of the stream, or no header yet).
    private var remaining: UInt64? { decoder?.remaining }
    /// Where reading the input's bytes is.
    package enum Source: Equatable {
        /// Bytes may still come.
        case open
        /// The input has ended (its writer closed it, end of file, or a stop signal).
        case ended
        /// The input ended as a FIFO that no writer ever opened (the stream ended first).
        case neverOpened
    }
    private var source = Source.open
    private var sourceEnded: Bool { source != .open }
    /// Where decoding is: bytes are decoded through the converter, all are decoded and the
    /// converter's tail is being flushed, or everything has been decoded and flushed (or the
    /// input ended before a header, or was stopped before one).
    package enum Decoding: Equatable { case decoding, flushing, drained }
    private var decoding = Decoding.decoding
    private var drained: Bool { decoding == .drained }
    /// Whether a writer has been seen (data came, or a read would have blocked): from then on,
    /// a real-time input's missing frames are late, even before its header has come.
    private var writerSeen = false
    /// Whether "waiting for a writer" has been said.
    private var announcedWait = false
    /// Decoded and converted frames waiting to be mixed: a ring of `capacity` frames, allocated
    /// once the input's header (and so its conversion) is known.
    private var ring = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var capacity = 0
    private let maxFrames: Int
    private var ringStart = 0, ringCount = 0
    private let decoded: UnsafeMutablePointer<Float>
    private let chunkFrames = 1024
    /// Frames of silence still to give before the input starts (offset), and frames to skip.
    private var leadIn: Int
    private var skip: Int
    /// Silence given for frames that were late: that many late frames are dropped when they come.
    private var owed = 0
    /// Figures for --stats.
    package private(set) var framesDelivered: Int64 = 0
    package private(set) var underrunFrames: Int64 = 0
    package private(set) var loops = 0
    /// Bytes of an incomplete last frame that were dropped.
    package private(set) var tornBytes = 0
    /// Audio bytes the header declared that never came (the input was cut short).
    package var missingBytes: UInt64 { drained && sourceEnded ? (remaining ?? 0) : 0 }
    /// Frames pushed since the input (re)started: a looping file that gives none stops looping.
    private var framesThisPass = 0

    /// Opens the input; a regular file's header is read now, so its errors come before audio.
    /// `label` starts every message about the input (`mix: input 2`, `aec: ref`);
    /// `channelMismatch` words the error for a channel count it cannot convert (nil: mix's).
    /// `realTime`: whether the unit reads it in real time (`RealTimePolicy.isRealTime(_:)`); the
    /// conversion's resampler is then the low-latency one.
    package init(spec: BusSpec, index: Int, label: String? = nil, target: StreamFormat, maxFrames: Int, realTime: Bool, wait: StreamDuration,
         channelMismatch: ((_ channels: Int) -> String)? = nil) throws {
        self.spec = spec
        self.channelMismatch = channelMismatch
        self.index = index
        let label = label ?? "mix: input \(index)"
        self.label = label
        self.target = target
        let offset = spec.offsetFrames(atRate: target.sampleRate)
        leadIn = max(0, offset)
        skip = max(0, -offset)
        waitMilliseconds = Int32(min(1000, max(0, (wait.seconds ?? Double(wait.frames(atRate: target.sampleRate)) / Double(target.sampleRate)) * 1000)))
        file = try SideInputFile(path: spec.path, name: "\(label) (\(spec.path))")
        let regular = file.kind == .regular
        if spec.loop && !regular { throw AUPipeError.usage("\(label) (\(spec.path)): loop needs a regular file; a FIFO or pipe cannot start again") }
        self.realTime = RealTimePolicy(runIsRealTime: realTime)
        live = realTime && !regular
        self.maxFrames = maxFrames
        decoded = .allocate(capacity: chunkFrames * 64)
        pending = [UInt8](repeating: 0, count: 65536)
        if !live { try fill(headerOnly: true) }
    }

    deinit {
        ring.deallocate()
        decoded.deallocate()
    }

    private let label: String
    private let channelMismatch: ((_ channels: Int) -> String)?
    package var name: String { file.name }

    /// Tries to parse the header from the bytes so far; true when known. Only a header cut short
    /// by the bytes so far means "wait for more"; anything else wrong with it is final.
    private func parseHeader() throws -> Bool {
        let memory = MemorySource(Array(pending[0..<pendingCount]), name: spec.path)
        let parsed: StreamDecoder
        do {
            parsed = try StreamDecoder.open(memory, rawFormat: spec.format, formatOption: "format=").0
        } catch let e as AUPipeError {
            if memory.isExhausted && !sourceEnded { return false }
            throw e.prefixed(label)
        }
        let format = try parsed.format.validated(source: name)
        dropPending(Int(parsed.header.headerBytes))
        decoder = parsed
        let converter = try makeConverter(from: format)
        chain = converter
        if capacity == 0 {
            // Room for a block and for one converted chunk, twice; a live bus buffers up to 2 s.
            capacity = max(2 * (maxFrames + converter.maxOutputFrames), live ? 2 * target.sampleRate : 0)
            ring.deallocate()
            ring = .allocate(capacity: capacity * target.channels)
        }
        return true
    }

    /// Channel and rate conversion from the bus's format to the stream's (`FormatConversion`:
    /// 1 to N and N to 1 channels, then `resample`'s exact length).
    private func makeConverter(from format: StreamFormat) throws -> Chain {
        let requester: FormatConversion.Requester = channelMismatch.map { words in .sideInput { from, _ in words(from) } }
            ?? .mixBus(name, path: spec.path)
        let stages = try FormatConversion(from: format, to: target, for: requester).stages()
        do {
            return try Chain(stages: stages, input: format, maxFrames: chunkFrames, measurePeaks: false, realTime: realTime)
        } catch let e as AUPipeError { throw e.prefixed(name) }
    }

    /// The bus's own channel count (known once its header is; 0 before).
    package var sourceChannels: Int { header?.format.channels ?? 0 }

    /// What --stats says about the conversion.
    package var conversionNote: String {
        guard let f = header?.format else { return "no header yet" }
        var steps: [String] = []
        if f.channels != target.channels { steps.append("\(f.channels) to \(target.channels) channels") }
        if f.sampleRate != target.sampleRate { steps.append("resampled \(f.sampleRate) to \(target.sampleRate) Hz") }
        return "\(header!.container.rawValue) \(f.spec)" + (steps.isEmpty ? "" : ", " + steps.joined(separator: ", "))
    }

    /// True when the bus has nothing more to give (a looping bus ends only if its file is empty).
    package var ended: Bool { drained && ringCount == 0 && leadIn == 0 && !(spec.loop && framesThisPass > 0) }

    /// Decodes what `pending` holds into the ring, through the converter.
    private func pump() throws {
        guard let chain, let decoder else { return }
        let frameBytes = decoder.frameBytes
        var frames = decoder.allowed(pendingCount) / frameBytes
        var offset = 0
        while frames > 0 && ringCount + chain.maxOutputFrames <= capacity {
            let n = min(frames, chunkFrames)
            decoder.decode(pending.withUnsafeBytes { $0.baseAddress! } + offset, frames: n, into: decoded)
            let (out, produced) = try chain.process(decoded, frames: n)
            push(out, produced)
            offset += n * frameBytes
            frames -= n
        }
        if offset > 0 {
            self.decoder!.take(offset)
            dropPending(offset)
        }
        // The end: all declared bytes decoded, or end of file with less than a frame left
        // (a torn last frame is dropped, and counted for --stats). Flush the converter once.
        if decoding == .decoding && (remaining == 0 || (sourceEnded && pendingCount < frameBytes)) {
            tornBytes += remaining == 0 ? 0 : pendingCount
            decoding = .flushing
        }
        // The converter's tail (a resampler's can be a thousand frames) goes in step by step,
        // while the ring has room for a step; the rest comes as the ring is read.
        while decoding == .flushing && ringCount + chain.maxOutputFrames <= capacity {
            if try chain.drainStep({ samples, n in push(samples, n) }) { decoding = .drained }
        }
    }

    /// Drops the first `count` bytes of `pending`, moving the rest to its start.
    private func dropPending(_ count: Int) {
        pending.withUnsafeMutableBytes { b in
            (b.baseAddress! as UnsafeMutableRawPointer).copyMemory(from: b.baseAddress! + count, byteCount: pendingCount - count)
        }
        pendingCount -= count
    }

    private func push(_ samples: UnsafePointer<Float>, _ frames: Int) {
        var frames = frames, from = samples
        if skip > 0 {
            let n = min(skip, frames)
            skip -= n
            frames -= n
            from += n * target.channels
        }
        if owed > 0 {
            let n = min(owed, frames)
            owed -= n
            frames -= n
            from += n * target.channels
        }
        let ch = target.channels
        var slot = (ringStart + ringCount) % capacity, done = 0
        while done < frames { // at most two runs: up to the ring's end, then from its start
            let n = min(frames - done, capacity - slot)
            (ring + slot * ch).update(from: from + done * ch, count: n * ch)
            done += n
            slot = 0
        }
        ringCount += frames
        framesThisPass += frames
    }

    /// Refills the ring until it holds `frames` frames (with `headerOnly`, until the header is
    /// known), the input ends, or (live) the wait is over.
    private func fill(_ frames: Int = 0, headerOnly: Bool = false) throws {
        var waited = false
        while !drained && (headerOnly ? header == nil : ringCount < frames) {
            let before = ringCount
            let room = pending.count - pendingCount
            var outcome: SideInputFile.ReadResult?
            if !sourceEnded && remaining != 0 && room > 0 {
                outcome = try pending.withUnsafeMutableBytes {
                    try file.read(into: $0.baseAddress! + pendingCount, count: header == nil ? min(room, 4096) : room)
                }
            }
            switch outcome {
            case .bytes(let n)?: pendingCount += n; writerSeen = true
            case .wouldBlock?: writerSeen = true
            case .end?: source = .ended
            case .noWriterYet? where streamEnded: source = .neverOpened // nobody will write now
            default: break
            }
            if header == nil {
                if sourceEnded && pendingCount == 0 { endWithoutAudio(); return }
                // A header is parsed when bytes come (or the end does, which makes a partial one an error).
                if case .bytes? = outcome, try !parseHeader(), pendingCount == pending.count {
                    throw AUPipeError.data("\(name): its header is over \(pending.count) bytes; aupipe reads side inputs' headers up to that: convert it first, e.g. <(aupipe -i \(spec.path) -t caf)")
                } else if sourceEnded { _ = try parseHeader() }
            }
            try pump()
            if case .bytes? = outcome { continue }
            if sourceEnded || drained || ringCount != before { continue }
            if outcome == nil { return } // nothing to read and nothing moved: the ring is as full as it gets
            // Nothing has come: wait, or (live) give silence.
            if StopSignal.received { stop(); continue }
            if !liveNow {
                let noWriter = outcome == .noWriterYet
                if file.wait(milliseconds: noWriter && !announcedWait ? 1000 : -1) == .timedOut, noWriter {
                    announcedWait = true
                    warn("aupipe: \(name): waiting for a writer to open the FIFO")
                }
                continue
            }
            if outcome == .noWriterYet || waited || waitMilliseconds == 0 { return }
            _ = file.wait(milliseconds: waitMilliseconds)
            waited = true
        }
    }

    /// Says once on stderr how many frames came late and were silence (real time only: a run
    /// that is not real time waits for them). Called by the unit at the end of the stream.
    package func reportLate() {
        guard !reportedLate, underrunFrames > 0 else { return }
        reportedLate = true
        warn("aupipe: \(name): warning: \(counted(Int(underrunFrames), "frame")) came late and were silence (a real-time run does not wait for side inputs; live=off waits)")
    }

    /// SIGINT/SIGTERM: read nothing more; what was read is still delivered.
    private func stop() {
        if source == .open { source = .ended }
        if header == nil { decoding = .drained }
    }

    /// The input ended before any byte came: it is silence, which is said once on stderr (not
    /// after a stop signal: then the user ended it).
    private func endWithoutAudio() {
        decoding = .drained
        guard !StopSignal.received else { return }
        warn(source == .neverOpened ? "aupipe: \(name): warning: no writer opened the FIFO; it was silence"
                         : "aupipe: \(name): warning: it ended without any audio (its writer closed it before a header came); it is silence")
    }

    /// Restarts a looping input from the top of its file.
    private func restart() throws {
        try file.reopen()
        decoder = nil
        chain = nil
        pendingCount = 0
        source = .open
        decoding = .decoding
        framesThisPass = 0
        loops += 1
        try fill(headerOnly: true)
    }

    /// The stream has ended (`duration=longest` goes on with the side inputs alone): from now on
    /// reads wait for data, as there is no real time to keep any more, and a FIFO that no writer
    /// has opened by now ends.
    package func streamHasEnded() {
        streamEnded = true
    }

    /// Writes `frames` frames of the bus into `output` (silence where it has none). Returns how
    /// many are the bus's own audio, and the frame within the block where the bus ended, if it
    /// has (the rest: before its offset, after its end, or late).
    package func read(into output: UnsafeMutablePointer<Float>, frames: Int) throws -> (real: Int, endedAt: Int?) {
        let ch = target.channels
        var f = 0, real = 0
        if leadIn > 0 {
            let n = min(leadIn, frames)
            output.update(repeating: 0, count: n * ch)
            leadIn -= n
            f = n
        }
        while f < frames {
            try fill(frames - f)
            if capacity == 0 { break } // a live bus whose header has not come yet: silence
            if ringCount == 0 && drained && spec.loop && framesThisPass > 0 {
                try restart()
                continue
            }
            let n = min(ringCount, frames - f)
            let first = min(n, capacity - ringStart)
            (output + f * ch).update(from: ring + ringStart * ch, count: first * ch)
            if n > first { (output + (f + first) * ch).update(from: ring, count: (n - first) * ch) }
            ringStart = (ringStart + n) % capacity
            ringCount -= n
            f += n
            real += n
            if n == 0 || ringCount == 0 && ended { break }
        }
        let endedAt = ended ? f : nil
        if f < frames {
            output.advanced(by: f * ch).update(repeating: 0, count: (frames - f) * ch)
            if !ended, writerSeen || !liveNow {
                // Late (a writer is there, or a FIFO's first one has come: a pipe whose command
                // starts slowly is late from the stream's start, not shifted): give silence now
                // and drop as many frames when they come.
                owed += frames - f
                underrunFrames += Int64(frames - f)
            }
        }
        framesDelivered += Int64(real)
        return (real, endedAt)
    }
}
