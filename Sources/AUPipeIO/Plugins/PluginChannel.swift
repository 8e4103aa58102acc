import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// One channel of a mono plugin (one audio input, one audio output) run on a stream of several
/// channels, for `PerChannel`: its instance and the two planes it is connected to (the plugin
/// unit's `FixedFrames` owns them; a plugin's audio input and output are never the same
/// buffer, so in-place-broken plugins are served).
package final class PluginChannel: PlanarChannelProcessor {
    package let instance: any PluginInstance
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<Float>

    /// `instance` with its audio input port connected to `input` and its output port to
    /// `output`, planes of one run's frames.
    package init(_ instance: any PluginInstance, audioInput: UInt32, to input: UnsafeMutablePointer<Float>,
         audioOutput: UInt32, to output: UnsafeMutablePointer<Float>) {
        self.instance = instance
        self.input = input
        self.output = output
        instance.connect(port: audioInput, to: input)
        instance.connect(port: audioOutput, to: output)
    }

    /// Runs the instance on one run of `frames` samples; no copy when `from` and `to` are the
    /// planes its ports are connected to (the usual case).
    package func process(_ from: UnsafeMutablePointer<Float>, into to: UnsafeMutablePointer<Float>, frames: Int) {
        if from != input { input.update(from: from, count: frames) }
        instance.run(frames: frames)
        if to != output { to.update(from: output, count: frames) }
    }
}
