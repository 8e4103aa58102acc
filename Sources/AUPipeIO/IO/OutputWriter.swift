import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// Writes the output stream: the header goes out in the same write as the first audio, so a
/// reader sees both at once and the kernel gets one call instead of two.
///
/// Every buffer handed to `write` must have `headerRoom` writable bytes in front of it; the
/// first call copies the header there and writes header and audio together.
package final class OutputWriter {
    private let sink: any ByteSink
    private let header: [UInt8]
    package private(set) var headerPending: Bool

    package init(sink: any ByteSink, header: [UInt8]) {
        self.sink = sink
        self.header = header
        headerPending = !header.isEmpty
    }

    /// Bytes each buffer must keep free in front of its audio.
    package var headerRoom: Int { header.count }

    /// Writes `count` bytes at `data` (with the header first, the first time).
    package func write(_ data: UnsafeMutableRawPointer, count: Int) throws {
        guard count > 0 else { return }
        if headerPending {
            let start = data - header.count
            header.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: header.count) }
            headerPending = false
            try sink.write(UnsafeRawBufferPointer(start: start, count: header.count + count))
        } else {
            try sink.write(UnsafeRawBufferPointer(start: data, count: count))
        }
    }

    /// Writes the header if no audio carried it (an empty stream).
    package func finish() throws {
        if headerPending {
            headerPending = false
            try sink.write(header)
        }
    }

    /// Ends the stream of `plan` after `dataBytes` bytes of audio: writes the header if no audio
    /// carried it, then, where the sink can be rewritten (a regular file), patches the header
    /// with the true sizes and appends the container's trailer (RIFF's pad byte). Returns
    /// whether the sizes were patched; raw output has none.
    package func finish(patching plan: OutputPlan, dataBytes: UInt64) throws -> Bool {
        try finish()
        guard plan.container != .raw, try sink.rewriteHeader(plan.header(dataBytes: dataBytes)) else { return false }
        try sink.write(plan.trailer(dataBytes: dataBytes))
        return true
    }
}
