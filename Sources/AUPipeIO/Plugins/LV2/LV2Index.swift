import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
import Glibc

/// What aupipe remembers between runs of the LV2 plugins installed on one search path: each
/// plugin's URI, name and the bundles it needs (its own, those holding its data and presets).
/// With it a plugin named by a word or a URI is found without reading every bundle, and its
/// world loads those bundles only (`LV2World.world(bundles:)`).
///
/// Kept in `$XDG_CACHE_HOME/aupipe` (or `~/.cache/aupipe`), one file per search path, written
/// after every plugin has been described (a lookup that needed them all, `aupipe plugins`). It is
/// used only while its stamp holds: the search path's directories and every bundle in them,
/// with the modification times of each bundle and its `manifest.ttl` (installing, removing or
/// upgrading a package changes them). Anything else (no file, another stamp, a file that does
/// not parse, a cache directory that cannot be written) means no index: lilv reads every
/// bundle, as without one.
package struct LV2Index: Sendable {
    package struct Entry: Sendable {
        package var uri: String
        package var name: String
        /// Bundle directories, the plugin's own first.
        package var bundles: [String]
    }

    package var entries: [Entry]

    /// Where the index of a search path is kept, and what stamps it.
    package struct Store: Sendable {
        /// The index file.
        package let file: String
        /// `LV2_PATH` (nil: lilv's default directories) and `HOME`, for `directories`.
        private let searchPath: String?, home: String?

        /// The store for `searchPath` (nil: lilv's default directories), in the cache directory
        /// the environment names; nil when it names none (no `HOME`).
        package init?(searchPath: String?) {
            func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
            let home = variable("HOME")
            let cache: String
            if let xdg = variable("XDG_CACHE_HOME"), xdg.hasPrefix("/") { cache = xdg }
            else if let home { cache = home + "/.cache" }
            else { return nil }
            self.searchPath = searchPath
            self.home = home
            let key = searchPath.map { "LV2_PATH=" + $0 } ?? "default"
            file = cache + "/aupipe/lv2-index-" + String(Self.fnv1a(key), radix: 16) + ".tsv"
        }

        /// `LV2_PATH`'s directories, or lilv's default ones (and the usual others) when unset.
        package var directories: [String] {
            let listed = searchPath.map { $0.split(separator: ":").map(String.init) } ?? Self.defaultDirectories()
            return listed.map { $0 == "~" || $0.hasPrefix("~/") ? (home ?? "") + $0.dropFirst() : $0 }
        }

        /// lilv's default search path on Linux (`~/.lv2:/usr/lib/ARCH/lv2:/usr/lib/lv2:/usr/local/lib/lv2`
        /// on Debian) and the other places distributions use, so that a bundle installed in any
        /// of them changes the stamp.
        package static func defaultDirectories() -> [String] {
            let multiarch = DirectoryNames.sorted(in: "/usr/lib")
                .filter { $0.contains("-linux-") }.sorted().flatMap { ["/usr/lib/\($0)/lv2", "/usr/local/lib/\($0)/lv2"] }
            return ["~/.lv2"] + multiarch + ["/usr/lib/lv2", "/usr/local/lib/lv2", "/usr/lib64/lv2", "/usr/local/lib64/lv2"]
        }

        /// The state of the installed bundles, as a hash: every directory and every entry in it
        /// with its modification time and its `manifest.ttl`'s.
        package func stamp() -> String {
            var text = ""
            for directory in self.directories {
                text += "\(directory)\t\(Self.modified(directory))\n"
                for name in DirectoryNames.sorted(in: directory) {
                    let bundle = directory + "/" + name
                    text += "\(name)\t\(Self.modified(bundle))\t\(Self.modified(bundle + "/manifest.ttl"))\n"
                }
            }
            return String(Self.fnv1a(text), radix: 16)
        }

        /// The index, if the file holds one for the bundles installed now.
        package func load() -> LV2Index? {
            guard let text = Self.contents(of: file) else { return nil }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count >= 2, lines[0] == Self.version, lines[1] == "stamp\t" + stamp() else { return nil }
            var entries: [Entry] = []
            for line in lines.dropFirst(2) where !line.isEmpty {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard fields.count >= 3 else { return nil }
                entries.append(Entry(uri: fields[0], name: fields[1], bundles: Array(fields.dropFirst(2))))
            }
            return LV2Index(entries: entries)
        }

        /// Writes `index` for the bundles installed now (to a temporary name, then renamed); does
        /// nothing when a field holds a tab or a line break, or the directory cannot be written.
        package func save(_ index: LV2Index) {
            var text = Self.version + "\nstamp\t" + stamp() + "\n"
            for entry in index.entries {
                let fields = [entry.uri, entry.name] + entry.bundles
                guard !fields.contains(where: { $0.contains("\t") || $0.contains("\n") }) else { return }
                text += fields.joined(separator: "\t") + "\n"
            }
            // The directory and any missing parent (as the XDG base directory spec asks, 0700).
            var directory = file.hasPrefix("/") ? "" : "."
            for part in file.split(separator: "/").dropLast() {
                directory += "/" + part
                mkdir(directory, 0o700)
            }
            let temporary = file + ".\(getpid()).tmp"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return }
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            if written != bytes.count || rename(temporary, file) != 0 { unlink(temporary) }
        }

        /// A file's text (at most 4 MB), or nil when it cannot be read.
        package static func contents(of path: String) -> String? {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while bytes.count < 4 << 20 {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 { return nil }
                if n == 0 { break }
                bytes += chunk[0..<n]
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        package static let version = "aupipe lv2 index 1"

        /// A file's modification time in nanoseconds, or -1 when it cannot be read.
        package static func modified(_ path: String) -> Int {
            var info = stat()
            guard stat(path, &info) == 0 else { return -1 }
            return info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
        }

        /// 64-bit FNV-1a of `text`'s UTF-8 bytes.
        package static func fnv1a(_ text: String) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
    }
}
