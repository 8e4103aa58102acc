import AUPipeFormats
import AUPipeGraph

/// `tee`: writes the stream as it is at this point of the chain to a second destination (a
/// file, a FIFO or `>(command)`, in any container), and passes it on untouched.
///
/// Built on `SideOutput`: a regular file gets the bytes `-o` would (header patched with the true
/// sizes at the end); a FIFO or pipe gets every frame (blocking writes) in a run that is not
/// real time, and in real time never stalls the main stream (late frames dropped whole and
/// counted in `--stats`) unless `block=1` (`RealTimePolicy`, through `live=`). The copy ends when the chain drains: everything the
/// units before it held back (a resampler's tail) is in it.
public final class TeeUnit: AudioUnit, StatsReporting, SideOutputWriter {
    public static let descriptor = UnitDescriptor(
        name: "tee",
        summary: "write a copy of the stream at this point to a file, FIFO or >(command)",
        details: """
            Writes the stream as it is at this point of the chain to path= and passes it on untouched. The container is type=, or the path's extension (.caf, .wav, .au/.snd, .raw/.pcm), or WAV; the encoding is format=, or the stream's as the container holds it, rounded and clipped as the main output is. A regular file gets the true sizes patched into its header at the end. A FIFO or >(command) gets the streaming header. In a run that is not real time (files and pipes alone) it gets every frame, as GNU tee does: the stream waits for its reader (and for a FIFO's reader to open it). In a real-time run (--capture or --live; live=auto) it never stalls the stream: what its reader is too slow for (beyond queue= of audio), or what comes before a reader opens the FIFO, is dropped in whole frames, said on stderr and counted in --stats; block=1 (or live=off) waits for the reader instead, live=on never waits in any run. What is queued at the end is delivered as the reader takes it (in real time, until it has taken nothing for queue=, at least 0.5 s). Several tees may be in one chain. The copy may not be the input, the output or a side input (64).
            """,
        parameters: [Keys.path, Keys.type, Keys.format, Keys.block, Keys.queue, Keys.live],
        primary: Keys.path.name,
        example: "aupipe gain -6 : tee before.wav : resample 16000 < in.wav > out.wav",
        exercise: UnitExercise(["\(UnitExercise.sideOutput).wav"]),
        manual: manualText,
        make: { v in
            guard let path = v[Keys.path] else {
                throw AUPipeError.usage("tee: needs a path, e.g. 'tee copy.wav' or 'tee >(opusenc - copy.opus)'")
            }
            var options = SideOutputOptions(label: "tee", container: v[Keys.type], encoding: v[Keys.format], block: v[Keys.block])
            options.queue = v[Keys.queue]
            options.live = v[Keys.live]
            return try TeeUnit(output: UnitStreams.opener.sideOutput(path: path, options: options))
        })

    /// The copy's destination.
    package let output: any SideOutputStream
    private var channels = 1

    package init(output: any SideOutputStream) {
        self.output = output
    }

    public var sideOutputs: [(role: String, path: String)] { [("tee", output.path)] }

    /// Passes the samples on untouched.
    public func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision { input }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        channels = context.input.channels
        try output.prepare(format: context.input, maxFrames: context.maxFrames, realTime: context.realTime,
                           precision: context.precision, dither: context.dither)
        return context.input
    }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into out: UnsafeMutablePointer<Float>) throws -> Int {
        try output.write(samples: input, frames: frames)
        out.update(from: input, count: frames * channels)
        return frames
    }

    /// Everything before this unit has drained when the chain drains it: the copy is complete.
    public func drain(into out: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        try output.finish()
        return (0, true)
    }

    public var clippedSamples: Int { output.clippedSamples }
    public var statsNote: String? { output.statsNote }
    public var statsFigures: [StatsFigure] { output.statsFigures }
}
