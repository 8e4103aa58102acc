#if canImport(Glibc)
import Glibc
#endif
import CAUPipeSupport
import CEbur128
import CPNG
import CSoxr

/// `aupipe version`: aupipe's version, then one line per library it uses: the version the
/// library reports (libsoxr, libebur128, libpng, ALSA), or the one pkg-config gave at build time
/// (speexdsp, which has no version call), and the file loaded. lilv and ALSA are loaded here
/// as a run that needs them would load them; a missing one is reported with the package to
/// install, and is no error (aupipe works without them).
public enum VersionCommand {
    /// One library as `aupipe version` reports it.
    package struct Library {
        /// The name and version, as printed first: `libsoxr 0.1.3`.
        package var name: String
        /// The file loaded, symbolic links resolved; nil when it was not found.
        package var path: String?
        /// How aupipe uses it, or what is missing and how to install it.
        package var note: String

        package var line: String {
            "\(name): \(path ?? "not found") (\(note))"
        }
    }

    public static func run(console: any Console) {
        console.out(HelpText.version)
        for library in linked() + loadedAtRunTime() { console.out(library.line) }
    }

    /// The libraries aupipe is linked with (loaded before `main`).
    package static func linked() -> [Library] {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        ebur128_get_version(&major, &minor, &patch)
        let soxr = String(cString: soxr_version())  // "libsoxr-0.1.3"
        let soxrVersion = soxr.hasPrefix("libsoxr-") ? String(soxr.dropFirst("libsoxr-".count)) : soxr
        let speexVersion = aupipe_speexdsp_build_version().map { String(cString: $0) + " (pkg-config at build time)" }
            ?? "(version not recorded: built without scripts/install or scripts/package-deb)"
        return [
            Library(name: "libsoxr \(soxrVersion)", path: loadedPath("libsoxr.so.0"),
                    note: "linked: resample engine=soxr"),
            Library(name: "libebur128 \(major).\(minor).\(patch)", path: loadedPath("libebur128.so.1"),
                    note: "linked: loudness in meter and loudnorm"),
            Library(name: "speexdsp \(speexVersion)", path: loadedPath("libspeexdsp.so.1"),
                    note: "linked: resample engine=speex, aec, denoise, agc"),
            Library(name: "libpng \(String(cString: png_get_libpng_ver(nil)))", path: loadedPath("libpng16.so.16"),
                    note: "linked: spectrogram's PNG files"),
        ]
    }

    /// lilv and ALSA, which aupipe loads with dlopen when a run needs them.
    package static func loadedAtRunTime() -> [Library] {
        var lilv = Library(name: "lilv", path: nil, note: "")
        do {
            try LV2Library.load()
            lilv.path = loadedPath(LV2Library.soname)
            lilv.note = "loaded at run time: lv2 plugins"
        } catch {
            lilv.note = "\(LV2Library.soname) not loaded; lv2 plugins need it: apt install liblilv-0-0"
        }
        var alsa = Library(name: "ALSA", path: nil, note: "")
        do {
            try ALSALibrary.load(for: "--capture")
            if let v = aupipe_alsa_version() { alsa.name += " " + String(cString: v) }
            alsa.path = loadedPath(ALSALibrary.soname)
            alsa.note = "loaded at run time: --capture, --monitor, --play"
        } catch {
            alsa.note = "\(ALSALibrary.soname) not loaded; --capture, --monitor and --play need it: apt install libasound2"
        }
        return [lilv, alsa]
    }

    /// The real path of the loaded library `name`, or nil when it is not loaded.
    package static func loadedPath(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard aupipe_loaded_library_path(name, &buffer, buffer.count) == 0 else { return nil }
        return String(cString: buffer)
    }
}
