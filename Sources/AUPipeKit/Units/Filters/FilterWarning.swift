#if canImport(Glibc)
import Glibc
#endif

/// One warning line on standard error from a filter unit's prepare (an `eq` band dropped).
/// Written with write(2) directly: units do not reach into the command layer's console.
enum FilterWarning {
    static func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress! + done, $0.count - done) }
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }
}
