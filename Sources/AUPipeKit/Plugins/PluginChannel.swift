/// One channel of a mono plugin (one audio input, one audio output) run on a stream of several
/// channels, for `PerChannel`: its instance and the two planes it is connected to (the plugin
/// unit owns them; a plugin's audio input and output are never the same buffer, so
/// in-place-broken plugins are served).
final class PluginChannel: ChannelProcessor {
    let instance: any PluginInstance
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<Float>

    /// `instance` with its audio input port connected to `input` and its output port to
    /// `output`, planes of one run's frames that outlive it.
    init(_ instance: any PluginInstance, audioInput: UInt32, to input: UnsafeMutablePointer<Float>,
         audioOutput: UInt32, to output: UnsafeMutablePointer<Float>) {
        self.instance = instance
        self.input = input
        self.output = output
        instance.connect(port: audioInput, to: input)
        instance.connect(port: audioOutput, to: output)
    }

    /// Runs the instance on one run of `frames` samples, in place (no copy in when `samples` is
    /// the plane its input is connected to).
    func process(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
        if samples != input { input.update(from: samples, count: frames) }
        instance.run(frames: frames)
        samples.update(from: output, count: frames)
    }
}
