/// The rules between run options, which no single option's parse can check (its value is fine on
/// its own): one needs another (`--control-reply` needs `--control`, the device options a device),
/// one replaces another (`--capture` replaces `-i`), or one's default comes from another (`-t`
/// from `-o`'s extension). `PipelineOptionsText.parsed()` applies them after every option's value
/// has been parsed.
enum RunOptionRules {
    static func check(_ text: PipelineOptionsText, into o: inout PipelineOptions) throws {
        if text.container == nil, let output = text.output { o.container = ContainerKind(pathExtensionOf: output) }
        if text.controlReply != nil, text.control == nil {
            throw AUPipeError.usage("--control-reply needs --control PATH")
        }
        if text.captureFormat != nil, text.capture == nil { throw AUPipeError.usage("--capture-format needs --capture DEVICE") }
        if text.capture != nil {
            if let input = text.input { throw AUPipeError.usage("--capture replaces the input; drop -i \(input) (or drop --capture)") }
            if text.inFormat != nil { throw AUPipeError.usage("--capture reads the format from --capture-format, not --in-format") }
        }
        let device = text.capture != nil || text.monitor != nil || text.play != nil
        if !device, text.period != nil || text.buffer != nil {
            throw AUPipeError.usage("--period and --buffer size the sound devices: give --capture, --monitor or --play")
        }
        if !device, text.reconnect != nil {
            throw AUPipeError.usage("--reconnect waits for a lost sound device to come back: give --capture, --monitor or --play")
        }
        // Frame counts, and a buffer of two periods at least, are checked once the rate is known
        // (ALSADevice.microseconds).
    }

    /// A device option's value: an ALSA device name, not empty.
    static func device(_ text: String, option: String) throws -> String {
        if text.isEmpty { throw AUPipeError.usage("\(option) needs an ALSA device name: default, hw:1,0, plughw:1 (list them with 'arecord -L' or 'aplay -L')") }
        return text
    }

    /// A duration option's value: `10s`, `250ms`, a bare number of seconds or milliseconds
    /// (`bareUnit`), or a frame count `480f`; within `range` seconds, or `frames` frames (a
    /// rate-dependent limit of the frame form is checked where the rate is known).
    static func duration(_ text: String, option: String, range: ClosedRange<Double>, frames: ClosedRange<Int> = 1...(1 << 53),
                         bareUnit: StreamDuration.BareUnit = .seconds) throws -> StreamDuration {
        guard let d = StreamDuration(text, bareUnit: bareUnit) else {
            throw AUPipeError.usage("\(option) \(text) is not a duration; write e.g. \(bareUnit == .seconds ? "10s" : "20ms"), 250ms or 480f")
        }
        if let s = d.seconds, !range.contains(s) {
            throw AUPipeError.usage("\(option) \(text) is out of range \(formatNumber(range.lowerBound * 1000)) ms...\(formatNumber(range.upperBound)) s")
        }
        if case .frames(let n) = d, !frames.contains(n) {
            throw AUPipeError.usage("\(option) \(text) is out of range \(frames.lowerBound)f...\(frames.upperBound)f")
        }
        return d
    }
}
