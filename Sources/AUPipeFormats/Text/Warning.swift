#if canImport(Glibc)
import Glibc
#endif

/// Writes one diagnostic line to stderr from inside the audio path (a unit's warning). Rare by
/// design: callers warn once per condition.
package func warn(_ line: String) {
    let bytes = PathBytes.bytes(line + "\n")
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress! + done, $0.count - done) }
        if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
    }
}
