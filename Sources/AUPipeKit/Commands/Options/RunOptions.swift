/// The options of a processing run, in the order of `aupipe --help`. Each declaration is the one
/// place an option is spelled; see `RunOption`.
extension RunOption {
    public static let all: [RunOption] = [
        RunOption(["-i", "--input"], .required("PATH"), help: ["read from PATH instead of stdin"],
                  completion: .files, manual: RunOptionManual.input, .value(\.input) { $0.input = $1 }),
        RunOption(["-o", "--output"], .required("PATH"), help: [
            "write to PATH instead of stdout; when the output is a regular",
            "file (this or a redirected stdout), header sizes are patched",
            "at the end; a terminal on stdout is refused unless -o -.",
            "A regular PATH is written beside it and renamed onto it when",
            "the run succeeds; a failed run leaves PATH as it was and keeps",
            "what was written as PATH.partial",
        ], completion: .files, manual: RunOptionManual.output, .value(\.output) { o, text in o.output = text; o.outputGiven = true }),
        RunOption(["--in-format"], .required("SPEC"), help: ["format of headerless input: TOKEN:RATE:CHANNELS, e.g. s16le:48000:1"],
                  completion: .formats, manual: RunOptionManual.inFormat, .value(\.inFormat) { $0.inFormat = try FormatSpec.parse($1, option: "--in-format") }),
        RunOption(["--out-format"], .required("SPEC"), help: [
            "output encoding (s16le), or TOKEN:RATE:CHANNELS to also convert",
            "rate and channel count at the end of the chain",
        ], completion: .formats, manual: RunOptionManual.outFormat, .value(\.outFormat) { o, text in
            let parts = try FormatSpec.components(text, option: "--out-format")
            guard parts.token != nil || parts.rate != nil || parts.channels != nil else {
                throw AUPipeError.usage("--out-format is empty; give a token (s16le) or TOKEN:RATE:CHANNELS")
            }
            o.outFormat = parts
        }),
        RunOption(["-t", "--type"], .required("TYPE"), help: [
            "output container: caf, wav, au or raw (default: that of -o's",
            "extension, .caf .wav .au .snd .raw .pcm, else the input's)",
        ], completion: .words(ContainerKind.allCases.map(\.rawValue)), manual: RunOptionManual.type, .value(\.container) { $0.container = try ContainerKind(option: $1) }),
        RunOption(["--block"], .required("DURATION"), help: ["most frames processed per step (default 10ms; 480f = frames)"],
                  manual: RunOptionManual.block, .value(\.block) {
                      $0.block = try RunOptionRules.duration($1, option: "--block", range: 0.0001...10, frames: 1...(1 << 20), bareUnit: .milliseconds)
                  }),
        RunOption(["--stats"], .optional("json", implied: "text"), help: ["print per-unit figures on stderr at the end"],
                  completion: .words(["json"]), manual: RunOptionManual.stats, .value(\.stats) { o, text in
                      guard let mode = StatsMode(rawValue: text), mode != .off else { throw AUPipeError.usage("--stats=\(text): use --stats (text) or --stats=json") }
                      o.stats = mode
                  }),
        RunOption(["--dither"], .required("TYPE"), help: [
            "add seeded dither where the output or a tee's copy",
            "rounds samples finer than its integers (16 bits or",
            "fewer; not mu-law/A-law): auto (default) and tpdf:",
            "TPDF; shaped: F-weighted noise at 44.1/48 kHz, TPDF",
            "at other rates; off: plain rounding. A 16-bit input",
            "that no unit recomputes stays bit-exact",
        ], completion: .words(DitherMode.allCases.map(\.rawValue)), manual: RunOptionManual.dither,
           .value(\.dither) { o, text in
            guard let mode = DitherMode(rawValue: text) else { throw AUPipeError.usage("--dither=\(text): use auto (the default), off, tpdf or shaped") }
            o.dither = mode
        }),
        RunOption(["--check"], help: [
            "check the paths the run would open, validate the chain against",
            "the input's header (with no input to read: against --in-format,",
            "else 48 kHz stereo or mono), print the formats, and exit",
        ], manual: RunOptionManual.check, .flag(\.check) { $0.check = true }),
        RunOption(["--control"], .required("PATH"), help: [
            "create the FIFO PATH (or use an existing one) and take commands",
            "from it while running: set UNIT.PARAM VALUE, get UNIT.PARAM, list;",
            "UNIT is a name (gain), name#K (gain#2), a position (2) or a",
            "name= label; a unit's own addresses follow (mix.bus1.gain);",
            "changes apply at the next block and glide",
        ], completion: .files, manual: RunOptionManual.control, .value(\.control) { $0.control = $1 }),
        RunOption(["--control-reply"], .required("PATH"), help: ["append control replies to PATH instead of stderr"],
                  completion: .files, manual: RunOptionManual.controlReply, .value(\.controlReply) { $0.controlReply = $1 }),
        RunOption(["--progress"], .optional("force", implied: "auto"), help: [
            "draw progress on stderr (percent and ETA for files, stream time",
            "and speed otherwise); only on a terminal unless =force",
        ], completion: .words(["force"]), manual: RunOptionManual.progress, .value(\.progress) { o, text in
            guard text == "auto" || text == "force" else { throw AUPipeError.usage("--progress=\(text): use --progress (only on a terminal) or --progress=force") }
            o.progress = text == "force"
        }),
        RunOption(["--duration"], .required("DURATION"), help: ["stop after this much input (10s, 250ms, 480f; bare: seconds)"],
                  manual: RunOptionManual.duration, .value(\.duration) { $0.duration = try RunOptionRules.duration($1, option: "--duration", range: 0.000001...1e9) }),
        RunOption(["--live"], help: [
            "the run is real time (as with --capture): side inputs (mix",
            "buses, aec's ref=) are not waited for (late frames are silence)",
            "and tee's FIFOs and pipes never stall the stream (late frames",
            "are dropped), both counted in --stats; the default resampler is",
            "the low-latency one; a unit's live= overrides it. Without it,",
            "files and pipes are not real time: side streams are waited",
            "for, and the bytes are the same on every run",
        ], manual: RunOptionManual.live, .flag(\.live) { $0.live = true }),
        RunOption(["--capture"], .required("DEVICE"), help: [
            "read from an ALSA capture device (default, hw:1,0, plughw:1)",
            "instead of stdin, until SIGINT/SIGTERM or --duration; the",
            "output is WAV unless -t or -o's extension says otherwise",
        ], manual: RunOptionManual.capture, .value(\.capture) { $0.capture = try RunOptionRules.device($1, option: "--capture") }),
        RunOption(["--capture-format"], .required("SPEC"), help: ["the format to capture in (default s16le:48000:2)"],
                  completion: .formats, manual: RunOptionManual.captureFormat, .value(\.captureFormat) { o, text in
                      let parts = try FormatSpec.components(text, option: "--capture-format")
                      var f = PipelineOptions.defaultCaptureFormat
                      if let t = parts.token { f.encoding = t }
                      if let r = parts.rate { f.sampleRate = r }
                      if let c = parts.channels { f.channels = c }
                      o.captureFormat = f
                  }),
        RunOption(["--monitor"], .required("DEVICE"), help: ["also play the output on an ALSA playback device"],
                  manual: RunOptionManual.monitor, .value(\.monitor) { $0.monitor = try RunOptionRules.device($1, option: "--monitor") }),
        RunOption(["--play"], .required("DEVICE"), help: [
            "play aec's far end (ref=) on an ALSA playback device and cancel",
            "exactly what was played (full duplex)",
        ], manual: RunOptionManual.play, .value(\.play) { $0.play = try RunOptionRules.device($1, option: "--play") }),
        RunOption(["--period"], .required("DURATION"), help: ["the sound devices' period (default 10ms)"],
                  manual: RunOptionManual.period, .value(\.period) {
                      $0.period = try RunOptionRules.duration($1, option: "--period", range: 0.001...2, bareUnit: .milliseconds)
                  }),
        RunOption(["--buffer"], .required("DURATION"), help: ["the sound devices' buffer (default 40ms: 4 periods)"],
                  manual: "", .value(\.buffer) {
                      $0.buffer = try RunOptionRules.duration($1, option: "--buffer", range: 0.002...4, bareUnit: .milliseconds)
                  }),
        RunOption(["--reconnect"], .optional("TIMEOUT", implied: "forever"), help: [
            "when a sound device goes away (unplugged, stuck), wait for it",
            "to come back (retried every 250 ms, up to TIMEOUT or for ever)",
            "and fill the capture's gap with silence; without it a lost",
            "--capture or --play device ends the run (74), a lost --monitor",
            "is dropped and the stream goes on",
        ], manual: RunOptionManual.reconnect, .value(\.reconnect) { o, text in
            o.reconnect = Reconnect(timeout: text == "forever" ? nil
                                    : try RunOptionRules.duration(text, option: "--reconnect", range: 0.001...1e9, bareUnit: .seconds))
        }),
        RunOption(["-h", "--help"], help: ["show this help"], manual: RunOptionManual.help, .early(.help(unit: nil))),
        RunOption(["-V", "--version"], help: ["show the version"], manual: RunOptionManual.version, .early(.version)),
    ]
}
