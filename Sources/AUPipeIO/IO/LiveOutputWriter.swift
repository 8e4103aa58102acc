import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// Writes a stream (its header, then whole frames) to a FIFO or pipe without ever stalling the
/// main stream: the live counterpart of `OutputWriter`, for side outputs.
///
/// Policy (the default, `block: false`):
/// - The descriptor is non-blocking. What the pipe does not take now waits in a bounded queue
///   (allocated once: `queueFrames` frames plus the header) and goes out first on later writes.
/// - When the queue is full, the **newest** frames are dropped, whole, and counted: what is
///   queued stays one contiguous piece of the stream, so the reader gets runs of consecutive
///   frames with gaps between them. (Dropping the oldest instead would gain no latency: a full
///   queue is as far behind either way.)
/// - Bytes go out in pieces of at most PIPE_BUF (4096) that end on a frame, which a pipe takes
///   whole or not at all: the reader never holds part of a frame, even when the rest is dropped
///   at the end. (A device may still take part of a piece; the rest of that frame is then
///   always queued and finished first.)
/// - A FIFO that has no reader yet is opened again at each write; frames that come meanwhile
///   are dropped and counted. The header goes out with the first audio a reader gets, so a
///   reader that comes late still gets a valid stream.
/// - At `finish`, what is queued is delivered: it waits while the reader takes bytes, and gives
///   up only after `idleMilliseconds` without progress (none with `block`), or at the stop; the
///   rest is counted as dropped.
///
/// With `block: true`, writes wait (poll) until the pipe takes everything, and the first write
/// waits for a reader to open a FIFO (trying every 20 ms; said on stderr after 1 s): nothing is
/// dropped. The stop condition (SIGINT/SIGTERM) ends every wait; from then on this behaves as
/// the default.
///
/// A reader that goes away (EPIPE): the queue and the rest of that write are dropped and counted,
/// the descriptor is closed, and `write` throws `OutputClosed` once; later writes drop their
/// frames. Telling the user is the owner's part.
package final class LiveOutputWriter {
    private let file: SideOutputFile
    private let header: [UInt8]
    private let frameBytes: Int
    private let block: Bool
    /// The queue: a ring of bytes (the header's, whole frames', and the end of a frame a device
    /// took part of), always ending on a frame.
    private let ring: UnsafeMutableRawPointer
    private let ringCapacity: Int
    private var ringStart = 0, ringCount = 0
    /// Whether the header has not been handed over yet (neither written nor queued).
    private var headerPending = true
    /// Bytes the descriptor took (header and audio): where the next piece starts in the stream.
    private var streamOffset = 0
    /// Whether the stop has come: no more waits.
    private var stopped = false
    private var announcedWait = false

    /// Audio bytes the descriptor took; `framesWritten` counts the whole frames among them.
    package private(set) var audioBytesWritten: UInt64 = 0
    /// Frames dropped: queue full, no reader yet, the reader gone, or left at `finish`.
    package private(set) var droppedFrames: Int64 = 0
    /// Whether a reader ever opened the FIFO (for a pipe or device: whether it opened at all).
    package private(set) var everOpened = false
    /// Whether the reader went away (EPIPE).
    package private(set) var readerGone = false
    /// Says a line to the user (`waiting for a reader`); stderr unless the owner says otherwise.
    package var announce: (String) -> Void = { warn($0) }

    package var framesWritten: Int64 { Int64(audioBytesWritten / UInt64(frameBytes)) }
    /// Bytes each buffer handed to `write` must keep free in front of its audio.
    package var headerRoom: Int { header.count }
    /// Frames, whole or begun, waiting in the queue.
    package var queuedFrames: Int {
        let queuedHeader = headerPending ? 0 : max(0, header.count - streamOffset)
        return (ringCount - queuedHeader + frameBytes - 1) / frameBytes
    }

    /// Every write the pipe takes whole: PIPE_BUF.
    private static let atomicBytes = 4096

    /// `queueFrames` is the most frames the queue holds (at least 1), besides the header.
    package init(file: SideOutputFile, header: [UInt8], frameBytes: Int, queueFrames: Int, block: Bool) {
        self.file = file
        self.header = header
        self.frameBytes = frameBytes
        self.block = block
        ringCapacity = header.count + max(1, queueFrames) * frameBytes
        ring = .allocate(byteCount: ringCapacity, alignment: 16)
    }

    deinit { ring.deallocate() }

    /// Whether a write may wait now: `block`, until the stop.
    private var waits: Bool { block && !stopped && !file.stop.isSet() }

    /// Writes `frames` whole frames at `data`, which has `headerRoom` writable bytes in front.
    /// Throws `OutputClosed` when the reader has just gone, and `AUPipeError` (74) for a
    /// failed write.
    package func write(_ data: UnsafeMutableRawPointer, frames: Int) throws {
        guard frames > 0 else { return }
        let open = try !readerGone && openIfReader()
        guard open else {
            droppedFrames += Int64(frames)
            return
        }
        var start = data, count = frames * frameBytes, lead = 0
        if headerPending {
            start -= header.count
            header.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: header.count) }
            count += header.count
            lead = header.count
            headerPending = false
        }
        if ringCount > 0, try !flushQueue(waiting: true) {
            droppedFrames += Int64(frames) // the reader went away
            try goneReader()
        }
        var done = 0
        if ringCount == 0 {
            let (written, gone) = try put(start, count, start, 0, waiting: true)
            done = written
            if gone {
                // What of this write did not go out is lost (a frame the reader got part of
                // counts as dropped, not written).
                let unsent = count - done - max(0, lead - done)
                droppedFrames += Int64((unsent + frameBytes - 1) / frameBytes)
                try goneReader()
            }
        }
        if done < count { enqueue(start + done, count: count - done, written: done, lead: lead) }
    }

    /// The end: what is queued is written as the reader takes it, then what is left is counted
    /// as dropped and the descriptor closed. It waits as long as the reader takes bytes; it gives
    /// up after `idleMilliseconds` without progress (with `block`: never), or at the stop. A
    /// reader that goes away now is not an error.
    package func finish(idleMilliseconds: Int32) throws {
        defer { discardQueue(); file.close() }
        guard file.isOpen, !readerGone else { return }
        while ringCount > 0 {
            let before = ringCount
            guard try flushQueue(waiting: false) else { readerGone = true; return }
            if ringCount == 0 || ringCount != before { continue }
            if stopped || file.stop.isSet() || file.waitWritable(milliseconds: block ? -1 : idleMilliseconds) != .ready { break }
        }
    }

    /// Opens the FIFO or pipe if it is not open: true once it is. Without a reader, false (the
    /// default) or, with `block`, a stop-aware wait for one.
    private func openIfReader() throws -> Bool {
        var waited = 0
        while !(try file.openStream()) {
            guard waits else { return false }
            if waited >= 1000 && !announcedWait {
                announcedWait = true
                announce("aupipe: \(file.name): waiting for a reader to open the FIFO")
            }
            if file.pause(milliseconds: 20) == .stopped { stopped = true }
            waited += 20
        }
        everOpened = true
        return true
    }

    /// Writes the queue out, as far as the pipe takes it now, or (`waiting` and `block`) until
    /// it is empty or the stop comes. False when the reader has gone.
    private func flushQueue(waiting: Bool) throws -> Bool {
        let first = min(ringCount, ringCapacity - ringStart)
        let (written, gone) = try put(ring + ringStart, first, ring, ringCount - first, waiting: waiting)
        ringStart = (ringStart + written) % ringCapacity
        ringCount -= written
        return !gone
    }

    /// Writes `count` bytes at `a` and then `secondCount` at `b` in pieces a pipe takes whole
    /// (at most PIPE_BUF, each ending on a frame), as far as the descriptor takes them, or
    /// (`waiting` and `block`) until all went or the stop came. Returns the bytes written, and
    /// whether the reader has gone.
    private func put(_ a: UnsafeRawPointer, _ count: Int, _ b: UnsafeRawPointer, _ secondCount: Int,
                     waiting: Bool) throws -> (written: Int, gone: Bool) {
        let total = count + secondCount
        var done = 0
        while done < total {
            let piece = pieceLength(available: total - done)
            let fromA = max(0, min(count - done, piece))
            let bStart = max(0, done - count)
            switch try file.write(a + min(done, count), count: fromA, then: b + bStart, count: piece - fromA) {
            case .wrote(let n):
                account(n)
                done += n
            case .wouldBlock:
                guard waiting && waits else { return (done, false) }
                if file.waitWritable(milliseconds: -1) == .stopped { stopped = true }
            case .readerGone:
                return (done, true)
            }
        }
        return (done, false)
    }

    /// The longest piece from `streamOffset` that a pipe takes whole (at most PIPE_BUF) and that
    /// ends on a frame or within the header; all of `available` (which ends on a frame) if that
    /// fits.
    private func pieceLength(available: Int) -> Int {
        if available <= Self.atomicBytes { return available }
        let limit = streamOffset + Self.atomicBytes
        if limit <= header.count { return Self.atomicBytes }
        let end = header.count + (limit - header.count) / frameBytes * frameBytes
        return end > streamOffset ? end - streamOffset : min(available, frameBytes)
    }

    /// Queues what a write left: `count` bytes at `bytes`, which start `written` bytes into a
    /// buffer whose first `lead` bytes are the header. The rest of the header and of a frame a
    /// device took part of must go (the queue always has room for them: this happens only when
    /// it was empty); then as many whole frames as fit, and the newest beyond are dropped.
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
        let headerPart = max(0, min(n, header.count - streamOffset))
        streamOffset += n
        audioBytesWritten += UInt64(n - headerPart)
    }

    /// The reader has gone: drop the queue, close, and tell the caller.
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
    }
}
