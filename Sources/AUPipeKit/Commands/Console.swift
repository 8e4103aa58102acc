#if canImport(Glibc)
import Glibc
#endif

/// Where commands print text: stdout for results, stderr for diagnostics. Tests capture both.
public protocol Console: AnyObject {
    func out(_ line: String)
    func err(_ line: String)
}

/// The process's own stdout and stderr, unbuffered so that diagnostics interleave correctly.
public final class StandardConsole: Console {
    public init() {}
    public func out(_ line: String) { Self.write(1, line + "\n") }
    public func err(_ line: String) { Self.write(2, line + "\n") }

    private static func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
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

/// Writes one diagnostic line to stderr from inside the audio path (a unit's warning). Rare by
/// design: callers warn once per condition.
func warn(_ line: String) {
    let text = line + "\n"
    _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(2, $0.baseAddress, $0.count - 1) }
}
