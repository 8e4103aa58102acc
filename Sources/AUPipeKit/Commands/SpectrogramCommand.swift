/// `aupipe spectrogram FILE [PARAMETER=VALUE]... [--in-format SPEC] [--block DURATION]`: the
/// `spectrogram` unit run over a file (or stdin, `-`), its audio thrown away. The picture goes
/// to `plot=`, by default FILE's name with its extension replaced by `.png`.
///
/// It is told from a chain that starts with the unit (`aupipe spectrogram plot=a.png < in.wav`)
/// by its first argument: a path, not `key=value`.
package enum SpectrogramCommand {
    /// Whether `word`, right after `spectrogram`, is the input of the command (a path or `-`)
    /// rather than a unit's argument or an option.
    package static func isInput(_ word: String) -> Bool {
        if word == "-" { return true }
        if word == ":" || CommandLineParser.isOption(word) { return false }
        guard let eq = word.firstIndex(of: "=") else { return true }
        return !(eq != word.startIndex && word[..<eq].allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    /// The run the command stands for: the unit over FILE, the output to /dev/null.
    package static func parse(_ args: [String],
                      scan: ([String]) throws -> (PipelineOptionsText, [String], Invocation?)) throws -> Invocation {
        let input = args[0]
        let (options, words, early) = try scan(Array(args.dropFirst()))
        if let early { return early == .help(unit: nil) ? .help(unit: "spectrogram") : early }
        if words.contains(":") {
            throw AUPipeError.usage("spectrogram FILE draws one file; for a chain, write the unit in it: aupipe -i FILE spectrogram plot=FILE.png : ...")
        }
        var allowed = PipelineOptionsText()
        allowed.inFormat = options.inFormat
        allowed.block = options.block
        allowed.duration = options.duration
        guard allowed == options else {
            throw AUPipeError.usage("spectrogram FILE takes --in-format, --block and --duration; the other options are for a chain (aupipe -i FILE spectrogram plot=FILE.png ...)")
        }
        var arguments = words
        if !words.contains(where: { $0.lowercased().hasPrefix("plot=") }) {
            guard input != "-" else { throw AUPipeError.usage("spectrogram - (stdin) needs plot=FILE.png: there is no file name to take it from") }
            let picture = pictureName(for: input)
            guard picture != input else { throw AUPipeError.usage("spectrogram \(input): the picture would replace the input; give plot=OTHER.png") }
            arguments.append("plot=\(picture)")
        }
        var run = options
        run.input = input
        run.output = "/dev/null"
        run.container = "raw"
        return .run(chain: [["spectrogram"] + arguments], options: run)
    }

    /// `dir/talk.wav` → `dir/talk.png`; a name without an extension gets `.png` added.
    package static func pictureName(for path: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path + ".png" }
        return String(path[..<dot]) + ".png"
    }
}
