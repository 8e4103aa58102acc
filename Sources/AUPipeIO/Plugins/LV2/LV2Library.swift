import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
import Glibc

import CAUPipeSupport

/// lilv's library, loaded on first use of an LV2 plugin (never before: aupipe runs without it).
package enum LV2Library {
    /// The library to load: `liblilv-0.so.0`, or `$AUPIPE_LILV_LIBRARY` when set (another path,
    /// or a name that does not exist, to try aupipe as it behaves without lilv).
    package static var soname: String { getenv("AUPIPE_LILV_LIBRARY").map { String(cString: $0) } ?? "liblilv-0.so.0" }

    /// Loads lilv, or throws the one line that says what to install (EX_UNAVAILABLE).
    package static func load() throws {
        let name = soname
        guard aupipe_lv2_load(name) != 0 else { return }
        let reason = String(cString: aupipe_lv2_load_error())
        let why = reason.contains("cannot open shared object file") ? "\(name) not found" : reason
        throw AUPipeError(.unavailable, "lv2 plugins need lilv's library (\(why)); install it with 'apt install liblilv-0-0' (Debian, Ubuntu) or 'dnf install lilv-libs' (Fedora); everything else in aupipe works without it")
    }
}
