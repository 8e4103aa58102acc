import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// The sound devices of one run: `--capture` (the input), `--monitor` (a copy of the output)
/// and `--play` (a unit's far end, played as it is read). They open once everything else is
/// known to be right, just before the output; `finish` lets them play out, `stats` reports them.
package struct RunDevices {
    package let capture: CaptureSource?
    package let monitor: MonitorOutput?
    package let played: PlayedReference?
    /// What a lost device does (`--reconnect`), the gaps, and the loss that ends the run.
    package let losses: DeviceLosses

    /// Opens the devices `options` names: the capture source given (if any), the monitor in the
    /// output's `format`, and the play device for the one unit in `units` that reads a reference.
    package static func open(_ options: PipelineOptions, capture: CaptureSource?, outputFormat format: StreamFormat,
                     units: [any AudioUnit]) throws -> RunDevices {
        let losses = DeviceLosses(reconnect: options.reconnect)
        try capture?.open(losses: losses)
        let sizes = ALSADevice.Sizes(period: options.period, buffer: options.buffer)
        let monitor = try options.monitor.map {
            MonitorOutput(device: try ALSADevice(name: $0, option: "--monitor", direction: .playback, format: format, sizes: sizes), losses: losses)
        }
        let played = try options.play.flatMap { name -> PlayedReference? in
            guard let player = referencePlayers(units).first else { return nil }
            let (format, maxFrames) = player.playbackFormat
            let device = try ALSADevice(name: name, option: "--play", direction: .playback, format: format, sizes: sizes)
            let played = PlayedReference(device: device, capture: capture?.device, maxFrames: maxFrames, losses: losses)
            player.attach(played)
            return played
        }
        return RunDevices(capture: capture, monitor: monitor, played: played, losses: losses)
    }

    /// The units `--play` could serve: those that read a reference from a file, FIFO or pipe.
    package static func referencePlayers(_ units: [any AudioUnit]) -> [any ReferencePlayer] {
        units.compactMap { $0 as? any ReferencePlayer }.filter(\.readsReference)
    }

    /// After the stream: what is queued on the playback devices plays out.
    package func finish() {
        monitor?.drain()
        played?.finish()
    }

    /// One entry per device for `--stats`.
    package var stats: [DeviceStats] {
        var list: [DeviceStats] = []
        if let device = capture?.device { list.append(DeviceStats(role: "capture", device: device)) }
        if let monitor { list.append(DeviceStats(role: "monitor", device: monitor.device)) }
        if let played { list.append(DeviceStats(role: "play", device: played.device, note: played.note)) }
        return list
    }
}
