import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// What a sound device did in a run, for `--stats`.
public struct DeviceStats: Sendable, Equatable {
    /// `capture`, `monitor` or `play`.
    public var role: String
    /// The ALSA PCM name.
    public var name: String
    public var format: StreamFormat
    /// What the device granted.
    public var periodFrames: Int
    public var bufferFrames: Int
    /// Overruns (capture) or underruns (monitor, play) recovered.
    public var xruns: Int
    /// More to say (the playback-to-capture delay under `--play`).
    public var note: String?

    package init(role: String, device: ALSADevice, note: String? = nil) {
        self.role = role
        name = device.name
        format = device.format
        periodFrames = device.periodFrames
        bufferFrames = device.bufferFrames
        xruns = device.xruns
        self.note = note
    }

    /// "overruns" for capture, "underruns" for playback.
    public var xrunWord: String { role == "capture" ? "overruns" : "underruns" }

    /// `480 frames (10 ms)`.
    package func frames(_ n: Int) -> String { "\(n) frames (\(formatFixed(Double(n) * 1000 / Double(format.sampleRate))) ms)" }

    package var text: String {
        "\(role) \(name) \(format.spec): period \(frames(periodFrames)), buffer \(frames(bufferFrames)), \(counted(xruns, String(xrunWord.dropLast()))) recovered" + (note.map { "; \($0)" } ?? "")
    }
}
