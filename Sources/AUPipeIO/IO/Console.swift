import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// Where commands print text: stdout for results, stderr for diagnostics. Tests capture both.
public protocol Console: AnyObject {
    func out(_ line: String)
    func err(_ line: String)
    /// Throws the first error writing the results (stdout), if there was one: `AUPipeError`
    /// (status 74) for a failed write, `OutputClosed` when the reader went away. Called once,
    /// after the command; the default has nothing to report.
    func finish() throws
}

extension Console {
    public func finish() throws {}
}

/// The process's own stdout and stderr, unbuffered so that diagnostics interleave correctly.
/// A failed write to stdout is kept (and nothing more is written there) until `finish`
/// reports it; stderr has nowhere to report its own failures.
public final class StandardConsole: Console {
    private let stdout = FileDescriptorSink(fd: 1, name: "stdout", owns: false)
    private var outputError: (any Error)?

    public init() {}

    public func out(_ line: String) {
        guard outputError == nil else { return }
        // Names given as bytes that are not UTF-8 are written back as those bytes (PathBytes).
        do { try stdout.write(PathBytes.bytes(line + "\n")) } catch { outputError = error }
    }

    public func err(_ line: String) { warn(line) }

    public func finish() throws {
        if let outputError { throw outputError }
    }
}

/// Collects text (tests).
public final class BufferConsole: Console {
    public private(set) var stdout: [String] = []
    public private(set) var stderr: [String] = []
    public init() {}
    public func out(_ line: String) { stdout.append(line) }
    public func err(_ line: String) { stderr.append(line) }
}
