/// The texts of `--help`, `aupipe units` and `aupipe help UNIT`, generated from the unit
/// descriptors so that they always match what the parser accepts.
public enum HelpText {
    public static let version = "aupipe \(Version.number)"

    public static var usage: String {
        """
        aupipe — an AudioUnit-style processing chain for Unix pipes

        Usage:
          aupipe [OPTIONS] UNIT [ARG]... [: UNIT [ARG]...]...
          aupipe info [--in-format SPEC] [FILE|-]
          aupipe units
          aupipe help UNIT
          aupipe plugins [lv2|ladspa] [WORD]
          aupipe help lv2 URI | aupipe help ladspa LABEL
          aupipe demo [-o PATH]
          aupipe gen SIGNAL [ARG]... [-o PATH] [-t TYPE] [--out-format SPEC] [--dither TYPE] [--stats]
          aupipe spectrogram FILE|- [PARAMETER=VALUE]... [--in-format SPEC] [--block DURATION]
          aupipe compare A B [--in-format SPEC] [--max-lsb N] [--max-diff-db DB] [--min-snr DB]
                             [--allow-length[=N|P%]] [--ignore-format] [--json]
          aupipe completions bash|zsh|fish
          aupipe version
          aupipe manual

        Reads PCM with a CAF, WAV or AU header (or raw PCM described by --in-format) from stdin,
        runs it through the units in order and writes it to stdout. An ARG is key=value, or a
        bare value for the unit's main parameter (resample 16000, gain -6). With no units the
        stream is copied, converted only as --out-format and -t ask.

        Options:
        \(HelpText.optionList)

        Format tokens: u8 s8 s16le s24le s32le u16le u24le u32le f32le f64le (…be), mulaw, alaw;
        ALSA (S16_LE, S24_3LE, FLOAT_LE), GStreamer (F32LE) and ffmpeg (s16, flt) spellings work too.

        Units:
        \(HelpText.unitList)

        Exit status: 0 ok (also when the reader closes the pipe early, or after SIGINT/SIGTERM in a
        real-time run: --live or --capture), 64 usage error, 65 bad input data, 66 input cannot be
        opened, 69 ALSA, a sound device or a plugin unavailable, 70 internal error, 73 output cannot
        be created, 74 I/O error; 130/143 after SIGINT/SIGTERM in a run that is not real time.

        Examples:
          arecord -t raw -f S16_LE -r 48000 -c 1 | aupipe --live --in-format s16le:48000:1 resample 16000 -t wav | opusenc - out.opus
          aupipe -i in.wav convert channels=1 : gain -3 -o mono.wav
          aupipe help resample
          aupipe gen sine 1000 duration=0.5 | aupipe resample 16000 -o a.wav && aupipe compare a.wav golden.wav --max-lsb 1

        'aupipe help gen' lists the test signals; 'aupipe help compare' the comparison options;
        'aupipe completions bash' prints a bash completion script (zsh, fish: the same for them);
        'aupipe version' the version and the libraries in use (libsoxr, libebur128, speexdsp, libpng, lilv, ALSA);
        'aupipe manual | man -l -' reads the manual page.
        """
    }

    /// `aupipe help gen`.
    public static var gen: String {
        var lines = ["aupipe gen SIGNAL [ARG]... [-o PATH] [-t TYPE] [--out-format SPEC] [--dither TYPE] [--stats]", "",
                     "Writes a deterministic test signal: the same arguments give the same bytes on every run.",
                     "It is made in 32-bit float and written like a chain's output: --out-format sets the encoding,",
                     "rate and channels (default s16le:48000:1), -t the container (default: that of -o's extension,",
                     ".caf .wav .au .snd .raw .pcm, else wav), -o the file. Integers of 16 bits or fewer get seeded",
                     "TPDF dither, as a chain's output does; --dither=off rounds plainly, --dither=shaped shapes it.",
                     "Every signal takes duration= (seconds, ms, or frames like 480f; default 1s, for dtmf the",
                     "length of its digits). Noise differs between channels; every other signal is the same in all.", ""]
        for d in SignalRegistry.all {
            lines.append("\(d.name) — \(d.summary)")
            for p in d.parameters {
                let def = p.defaultDescription
                lines.append("  \(p.name)\(p.name == d.primary ? " (bare value)" : ""): \(p.help); \(p.typeDescription); \(def)")
            }
        }
        lines += ["", "Examples:", "  aupipe gen sine 997 level=-1 duration=2s --out-format s24le:96000:2 -o tone.wav",
                  "  aupipe gen noise pink seed=7 level=-23 duration=10s -t caf | aupipe resample 16000 -o pink16k.caf",
                  "  aupipe gen dtmf 5551234 --out-format mulaw:8000:1 -t au -o dial.au"]
        return lines.joined(separator: "\n")
    }

    /// `aupipe help compare`.
    public static var compare: String {
        """
        aupipe compare A B [--in-format SPEC] [--max-lsb N] [--max-diff-db DB] [--min-snr DB]
                           [--allow-length[=N|P%]] [--ignore-format] [--json]

        Compares two streams (any container; raw ones need --in-format, which headers override)
        sample by sample, frame k of A with frame k of B: nothing is aligned or trimmed. Prints the
        frame counts, the largest difference in LSB of the coarser encoding and in dBFS, the RMS
        difference, the SNR (A as the signal), NaN and infinities found, and the first differing
        frame and channel. Paths that start with '-' go after --: compare -- -a.wav b.wav.
        Without a tolerance only identical samples pass; with tolerances, all given must hold:
          --max-lsb N         largest |A-B| at most N LSB of the coarser encoding, 0...1e12
          --max-diff-db DB    largest |A-B| at most DB dBFS, -400...20 (-80 or -80dB)
          --min-snr DB        10*log10(sum A^2 / sum (A-B)^2) at least DB, -400...400
        A NaN or infinity equals only the same value, and fails every tolerance otherwise.
        A length difference fails unless --allow-length: alone it allows 1 % of A's length,
        --allow-length=N at most N frames, --allow-length=P% at most P percent of A's length;
        the common part is then compared, and nothing passes when one stream is empty.
        Different sample types (s16le against f32le) fail unless --ignore-format; byte order
        alone (s16le against s16be) is no difference.
        --json prints one JSON object instead of text, with "reason" for scripts.
        Exit status: 0 within tolerance, 1 outside it; when the streams cannot be compared, the
        status of the cause: 65 for rates, channel counts or sample types that differ, or bad
        input, 66 for an input that cannot be opened, 64 for a usage error (as aupipe).
        """
    }

    /// The run options' lines of `--help`, from `RunOption.all`.
    package static var optionList: String {
        RunOption.all.flatMap(\.helpLines).joined(separator: "\n")
    }

    package static var unitList: String {
        UnitRegistry.all.map { "  " + padded($0.name, 10) + $0.summary }.joined(separator: "\n")
    }

    /// `aupipe units`: every unit of `registry` with its parameters on one line each.
    public static func units(_ registry: UnitRegistry = .standard) -> String {
        registry.all.map { d in
            let params = d.synopsis ?? d.parameters.map { p in
                "\(p.name)=\(p.defaultValue ?? "…")" + (p.name == d.primary ? "*" : "") + (p.isLive ? "~" : "")
            }.joined(separator: " ")
            return padded(d.name, 10) + d.summary + "\n          " + params
        }.joined(separator: "\n") + "\n\n(* takes a bare value; ~ can change while running, through --control; every unit also takes\nname=LABEL for --control; 'aupipe help UNIT' describes each parameter)"
    }

    package static func padded(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }

    /// The widest line of `aupipe help UNIT`, in columns.
    public static let width = 100

    /// `aupipe help UNIT`: what the unit does, each parameter with its range and default, an
    /// example and where the manual says more; lines wrapped at `width` columns.
    public static func unit(_ d: UnitDescriptor) -> String {
        var lines = ["\(d.name) — \(d.summary)", ""]
        lines += d.details.split(separator: "\n").flatMap { wrapped(String($0), indent: "") }
        lines += ["", "Parameters:"]
        for p in d.parameters {
            let def = p.defaultDescription
            let primary = p.name == d.primary ? " (bare value)" : ""
            let live = p.isLive ? " (live: --control can change it while running)" : ""
            lines += wrapped("  \(p.name)\(primary)\(live): \(p.help)", indent: "      ")
            lines += wrapped("      \(p.typeDescription); \(def)", indent: "        ")
        }
        if let synopsis = d.synopsis { lines.append("  \(synopsis)") }
        lines.append("  name: a label for --control (set LABEL.PARAMETER VALUE); any unit takes it")
        lines += ["", "Example:"] + wrapped("  \(d.example)", indent: "      ", continuation: " \\")
        lines += ["", "More: the \(d.name) section of UNITS in 'man aupipe' ('aupipe manual' prints the page)."]
        return lines.joined(separator: "\n")
    }

    /// `line` broken at spaces into lines of at most `width` columns, the later ones starting
    /// with `indent`, every one but the last ending with `continuation` (` \` for a shell
    /// command). A word longer than a line stays whole.
    public static func wrapped(_ line: String, indent: String, continuation: String = "") -> [String] {
        guard line.count > width else { return [line] }
        let lead = String(line.prefix { $0 == " " })
        var words = line.dropFirst(lead.count).split(separator: " ").map(String.init)
        var lines: [String] = []
        var current = lead + words.removeFirst()
        for word in words {
            if current.count + 1 + word.count + continuation.count > width {
                lines.append(current + continuation)
                current = indent + word
            } else {
                current += " " + word
            }
        }
        return lines + [current]
    }
}
