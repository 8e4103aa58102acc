import AUPipeFormats
import AUPipeGraph

/// The side chain of `compressor` and `gate`: the input their level is read from, instead of
/// the stream (music ducked under a voice), through the same side-input seam as `mix`'s buses
/// and `aec`'s `ref=` (`SideInputStream`): converted to the stream's rate and channel count (1 to N
/// copies, N to 1 averaged), frame-aligned with the stream, waited for in a run that is not
/// real time, read without blocking in one that is (`live=`; late frames are silence). After
/// its end it is silence. `frames` is the most one `read` gives; nothing is allocated per block.
package final class Sidechain {
    /// How long a real-time block waits for a late side chain.
    package static let wait = StreamDuration.milliseconds(5)

    package let spec: BusSpec
    package let reader: any SideInputStream
    /// The frames read last, interleaved in the stream's channel count.
    package let buffer: UnsafeMutablePointer<Float>
    private let capacity: Int

    package init(spec: BusSpec, unit: String, stream: StreamFormat, maxFrames: Int, realTime: Bool) throws {
        self.spec = spec
        let channels = stream.channels
        reader = try UnitStreams.opener.sideInput(SideInputRequest(spec: spec, index: 1, label: "\(unit): sidechain",
                               target: StreamFormat(encoding: .f32le, sampleRate: stream.sampleRate, channels: channels),
                               maxFrames: maxFrames, realTime: realTime, wait: Self.wait) { n in
            "\(unit): sidechain \(spec.path) has \(counted(n, "channel")); the stream has \(channels): give it 1 channel or \(channels), e.g. sidechain=<(aupipe -i \(spec.path) convert channels=1)"
        })
        capacity = maxFrames
        buffer = .allocate(capacity: maxFrames * channels)
        buffer.initialize(repeating: 0, count: maxFrames * channels)
    }

    deinit { buffer.deallocate() }

    /// Reads the next `frames` (≤ the most given in `init`) frames into `buffer`.
    package func read(_ frames: Int) throws {
        precondition(frames <= capacity)
        _ = try reader.read(into: buffer, frames: frames)
    }
}
