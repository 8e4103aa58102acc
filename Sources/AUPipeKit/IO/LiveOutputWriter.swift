#if canImport(Glibc)
import Glibc
#endif

/// Writes a stream (its header, then whole frames) to a FIFO or pipe without ever stalling the
/// main stream: the live counterpart of `OutputWriter`, for side outputs.
///
/// Policy (the default, `block: false`):
/// - The descriptor is non-blocking. What the pipe does not take now waits in a bounded queue
///   (allocated once, `queueFrames` frames plus the header) and goes out first on later writes.
/// - When the queue is full, the **newest** frames are dropped, whole, and counted: what is
///   queued stays one contiguous piece of the stream, so the reader gets runs of consecutive
///   frames with gaps between them, always aligned on frames. (Dropping the oldest instead
///   would gain no latency: a full queue is as far behind either way.) A frame the pipe took
///   only part of is always finished first.
/// - A FIFO that has no reader yet is opened again at each write; frames that come meanwhile
///   are dropped and counted. The header goes out with the first audio a reader gets, so a
///   reader that comes late still gets a valid stream.
/// - At `finish`, what is queued gets a bounded attempt: it waits while the reader takes bytes,
///   and gives up after `idleMilliseconds` without progress (or at the stop); the rest is
///   counted as dropped.
///
/// With `block: true`, writes wait (poll) until the pipe takes everything, and the first write
/// waits for a reader to open a FIFO (trying every 20 ms; said on stderr after 1 s): nothing is
/// dropped. The stop condition (SIGINT/SIGTERM) ends every wait; from then on this behaves as
/// the default.
///
/// A reader that goes away (EPIPE): the queue and the rest of that write are dropped and counted,
/// the descriptor is closed, and `write` throws `OutputClosed` once; later writes drop their
/// frames. Telling the user is the owner's part.
final class LiveOutputWriter {
    private let file: SideOutputFile
    private let header: [UInt8]
    private let frameBytes: Int
    private let block: Bool
    /// The queue: a ring of bytes (the header's and whole frames', plus the end of a frame the
    /// pipe took part of).
    private let ring: UnsafeMutableRawPointer
    private let ringCapacity: Int
    private var ringStart = 0, ringCount = 0
    /// Whether the header has not been handed over yet (neither written nor queued).
    private var headerPending: Bool
    /// Header bytes not written to the descriptor yet: the first bytes written are the header's.
    private var headerUnwritten: Int
    /// Whether the stop has come: no more waits.
    private var stopped = false
    private var announcedWait = false

    /// Audio bytes the descriptor took; `framesWritten` counts the whole frames among them.
    private(set) var audioBytesWritten: UInt64 = 0
    /// Frames dropped: queue full, no reader yet, the reader gone, or left at `finish`.
    private(set) var droppedFrames: Int64 = 0
    /// Whether a reader ever opened the FIFO (a pipe or device: whether it opened at all).
    private(set) var everOpened = false
    /// Whether the reader went away (EPIPE).
    private(set) var readerGone = false

    var framesWritten: Int64 { Int64(audioBytesWritten / UInt64(frameBytes)) }
    /// Bytes each buffer handed to `write` must keep free in front of its audio.
    var headerRoom: Int { header.count }
    /// Whole or partial frames waiting in the queue.
    var queuedFrames: Int { (queuedAudioBytes + frameBytes - 1) / frameBytes }
    private var queuedAudioBytes: Int { ringCount - (headerPending ? 0 : headerUnwritten) }

    /// `queueFrames` is the most frames the queue holds (at least 1), besides the header.
    init(file: SideOutputFile, header: [UInt8], frameBytes: Int, queueFrames: Int, block: Bool) {
        self.file = file
        self.header = header
        self.frameBytes = frameBytes
        self.block = block
        headerPending = true
        headerUnwritten = header.count
        ringCapacity = header.count + max(1, queueFrames) * frameBytes
        ring = .allocate(byteCount: ringCapacity, alignment: 16)
    }

    deinit { ring.deallocate() }

    private var waits: Bool { block && !stopped && !file.stop.isSet() }

    /// Writes `frames` whole frames at `data`, which has `headerRoom` writable bytes in front.
    /// Throws `OutputClosed` when the reader has just gone, and `AUPipeError` (74) for a
    /// failed write.
    func write(_ data: UnsafeMutableRawPointer, frames: Int) throws {
        guard frames > 0 else { return }
        let open = try !readerGone && openIfReader()
        if !open {
            droppedFrames += Int64(frames)
            return
        }
        var start = UnsafeMutableRawPointer(data), count = frames * frameBytes, lead = 0
        if headerPending {
            start -= header.count
            header.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: header.count) }
            count += header.count
            lead = header.count
            headerPending = false
        }
        var done = 0
        do {
            if ringCount > 0 { try flushQueue() }
            if ringCount == 0 { try writeDirect(start, count: count, done: &done) }
        } catch is OutputClosed {
            // What of this write did not go out is lost with the queue (a frame the reader got
            // part of counts as dropped, not written).
            let unsent = count - done - max(0, lead - done)
            droppedFrames += Int64((unsent + frameBytes - 1) / frameBytes)
            throw OutputClosed()
        }
        if done < count { enqueue(start + done, count: count - done, written: done, lead: lead) }
    }

    /// The end: a bounded attempt to write what is queued, then the rest is counted as dropped
    /// and the descriptor closed. The attempt waits while the reader takes bytes: it gives up
    /// after `idleMilliseconds` without progress, after `totalMilliseconds` in all, or at the
    /// stop. A reader that goes away now is not an error.
    func finish(idleMilliseconds: Int32, totalMilliseconds: Int) throws {
        defer { discardQueue(); file.close() }
        guard file.isOpen, !readerGone else { return }
        let deadline = Self.milliseconds() + totalMilliseconds
        do {
            while ringCount > 0 {
                let before = ringCount
                try flushQueue(waiting: false)
                if ringCount == 0 || ringCount != before { continue }
                let left = deadline - Self.milliseconds()
                if stopped || left <= 0 || file.waitWritable(milliseconds: Int32(min(left, Int(idleMilliseconds)))) != .ready { break }
            }
        } catch is OutputClosed {}
    }

    /// A monotonic clock in milliseconds.
    private static func milliseconds() -> Int {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return t.tv_sec * 1000 + t.tv_nsec / 1_000_000
    }

    /// Opens the FIFO or pipe if it is not open: true once it is. Without a reader, false (the
    /// default) or, with `block`, a stop-aware wait for one.
    private func openIfReader() throws -> Bool {
        var waited = 0
        while !(try file.openStream()) {
            guard waits else { return false }
            if waited >= 1000 && !announcedWait {
                announcedWait = true
                warn("aupipe: \(file.name): waiting for a reader to open the FIFO")
            }
            if file.pause(milliseconds: 20) == .stopped { stopped = true }
            waited += 20
        }
        everOpened = true
        return true
    }

    /// Writes the queue out, waiting with `block` (until the stop), or as far as the pipe takes it.
    private func flushQueue(waiting: Bool? = nil) throws {
        while ringCount > 0 {
            let run = min(ringCount, ringCapacity - ringStart)
            switch try file.write(ring + ringStart, count: run) {
            case .wrote(let n):
                account(n)
                ringStart = (ringStart + n) % ringCapacity
                ringCount -= n
            case .wouldBlock:
                guard waiting ?? waits else { return }
                if file.waitWritable(milliseconds: -1) == .stopped { stopped = true }
            case .readerGone:
                try goneReader()
            }
        }
    }

    /// Writes `count` bytes straight from the caller's buffer, counting in `done` how many went
    /// out (all of them with `block`, until the stop).
    private func writeDirect(_ bytes: UnsafeRawPointer, count: Int, done: inout Int) throws {
        while done < count {
            switch try file.write(bytes + done, count: count - done) {
            case .wrote(let n):
                account(n)
                done += n
            case .wouldBlock:
                guard waits else { return }
                if file.waitWritable(milliseconds: -1) == .stopped { stopped = true }
            case .readerGone:
                try goneReader()
            }
        }
    }

    /// Queues what a write left: `count` bytes at `bytes`, which start `written` bytes into a
    /// buffer whose first `lead` bytes are the header. The rest of the header and of a frame the
    /// pipe took part of must go (the queue always has room for them: this happens only when it
    /// was empty); then as many whole frames as fit, and the newest beyond are dropped.
    private func enqueue(_ bytes: UnsafeRawPointer, count: Int, written: Int, lead: Int) {
        var mandatory = max(0, lead - written)
        let intoAudio = written - lead
        if intoAudio > 0 && intoAudio % frameBytes != 0 { mandatory = frameBytes - intoAudio % frameBytes }
        let optionalFrames = (count - mandatory) / frameBytes
        let room = (ringCapacity - ringCount - mandatory) / frameBytes
        let kept = min(optionalFrames, max(0, room))
        droppedFrames += Int64(optionalFrames - kept)
        append(bytes, count: mandatory + kept * frameBytes)
    }

    private func append(_ bytes: UnsafeRawPointer, count: Int) {
        var slot = (ringStart + ringCount) % ringCapacity, done = 0
        while done < count { // at most two runs: up to the ring's end, then from its start
            let n = min(count - done, ringCapacity - slot)
            (ring + slot).copyMemory(from: bytes + done, byteCount: n)
            done += n
            slot = 0
        }
        ringCount += count
    }

    /// Counts `n` bytes the descriptor took: the header's first, then audio.
    private func account(_ n: Int) {
        let h = min(n, headerUnwritten)
        headerUnwritten -= h
        audioBytesWritten += UInt64(n - h)
    }

    /// The reader has gone: drop the queue, close, and say so once.
    private func goneReader() throws -> Never {
        discardQueue()
        readerGone = true
        file.close()
        throw OutputClosed()
    }

    /// Counts what is queued as dropped (a frame the reader got part of included) and empties it.
    private func discardQueue() {
        droppedFrames += Int64(queuedFrames)
        ringCount = 0
        ringStart = 0
        if !headerPending { headerUnwritten = 0 }
    }
}
