import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// A regular file's identity (device and inode): two paths name the same file through links
/// when their identities are equal. Devices, FIFOs and pipes have none (/dev/null may be both
/// an input and the output).
package struct FileIdentity: Equatable {
    package let device: UInt64
    package let inode: UInt64

    /// The identity of the regular file at `path` (links followed), or nil.
    package init?(path: String) {
        var st = stat()
        guard stat(cPath(path), &st) == 0 else { return nil }
        self.init(st)
    }

    /// The identity of the regular file open on `fd`, or nil.
    package init?(descriptor fd: Int32) {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        self.init(st)
    }

    private init?(_ st: stat) {
        guard (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}
