import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// The names of a directory's entries, for the plugin hosts' searches (LADSPA's libraries in
/// each `LADSPA_PATH` directory, LV2's bundles for the index's stamp).
package enum DirectoryNames {
    /// The names in `directory` but `.` and `..`, sorted (so that a search is the same on every
    /// run, whatever order the file system keeps); none if it cannot be read.
    package static func sorted(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
