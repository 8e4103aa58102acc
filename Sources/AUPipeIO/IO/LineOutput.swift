import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// A destination for short text lines written while the stream runs (`meter every=`'s JSON
/// lines): stderr, a regular file, or a FIFO or pipe that must never stall the stream.
///
/// A regular file is created at the first line and written as the disk takes it. A FIFO or pipe
/// is opened non-blocking (a FIFO with no reader yet is tried again at each line) and each line,
/// shorter than PIPE_BUF, goes in whole or not at all: a line the reader has no room for is
/// dropped and counted, never torn. A reader that goes away stops the lines with one warning.
/// Nothing is allocated per line.
package final class LineOutput: LineOutputStream {
    /// The path, or nil for stderr.
    package let path: String?
    private let file: SideOutputFile?
    private var sink: FileDescriptorSink?
    private var gone = false
    /// Lines the destination took, and lines dropped (no reader yet, reader too slow or gone).
    package private(set) var written = 0, dropped = 0

    /// Checks `path` as a side output (`label (path)` starts messages); creates nothing.
    package init(path: String?, label: String, stop: StopCondition = .signals) throws {
        self.path = path
        file = try path.map { try SideOutputFile(path: $0, name: "\(label) (\($0))", stop: stop) }
    }

    /// Whether the destination is a FIFO or pipe (lines may be dropped).
    package var isStream: Bool { file?.kind == .stream }

    /// Writes one line of `count` bytes (its newline included).
    package func write(_ line: UnsafeRawPointer, count: Int) throws {
        guard let file else {
            var done = 0
            while done < count {
                let n = Glibc.write(2, line + done, count - done)
                if n < 0 { if errno == EINTR { continue }; return }
                done += n
            }
            written += 1
            return
        }
        if file.kind == .regular {
            if sink == nil { sink = try file.createFile() }
            try sink!.write(UnsafeRawBufferPointer(start: line, count: count))
            written += 1
            return
        }
        guard !gone, try file.openStream() else { dropped += 1; return }
        switch try file.write(line, count: count, then: line, count: 0) {
        case .wrote: written += 1
        case .wouldBlock: dropped += 1
        case .readerGone:
            gone = true
            dropped += 1
            warn("aupipe: \(file.name): warning: its reader went away after \(counted(Int(written), "line")); no more lines go there, and the stream goes on")
        }
    }

    /// Closes the destination (a regular file with no line yet is created empty).
    package func finish() throws {
        if let file, file.kind == .regular, sink == nil { sink = try file.createFile() }
        sink = nil
        file?.close()
    }
}
