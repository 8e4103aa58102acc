import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `mix`: a MultiChannelMixer in the pipe. Bus 0 is the chain's own stream; each `input=` adds a
/// bus read from a file, a FIFO or a process substitution, converted to the stream's format.
///
/// The mix is a plain weighted sum, frame by frame, with no renormalisation:
/// out = G_out · (G_0 · m_0 · x_0 + Σ_k G_k · m_k · P_k,c · x_k), where G are gains from dB,
/// m are mute switches (0 or 1) and P_k,c the pan gains of bus k for output channel c. A bus that
/// ends is silence from then on, with no jump in the others' gains.
///
/// Pan (stereo output only): a mono bus is placed with the constant-power law
/// P_L = cos((p + 1)·π/4), P_R = sin((p + 1)·π/4) (−3 dB each at the centre); a stereo bus is
/// balanced: P_L = min(1, 1 − p), P_R = min(1, 1 + p). Without `pan`, every channel gets 1.
///
/// Overload: `clip` limits every output sample to [−1, 1] and counts those it changed;
/// `limit` bends samples above −1 dBFS softly towards full scale (a tanh knee), never past it.
public final class MixUnit: AudioUnit, LiveControllable, StatsReporting, SideInputReader {
    public static let descriptor = UnitDescriptor(
        name: "mix",
        summary: "mix files, FIFOs or <(commands) into the stream",
        details: """
            Bus 0 is the chain's own stream; every input= adds a bus: input=PATH[,gain=DB or a linear factor like 0.5x][,pan=-1..1][,offset=MS][,loop][,mute][,format=TOKEN:RATE:CH]. A bus may be any container aupipe reads (raw with format=), at any rate and channel count: it is resampled (exact length, as resample) and converted 1 to N or N to 1 channels to the stream's format. offset= starts the bus later on the stream's timeline (negative: skips its beginning); loop starts a file again when it ends.
            The mix is a plain weighted sum with no renormalisation: out = out-gain x (main-gain x stream + sum of gain x pan x bus). A bus that ends is silence from then on; nothing else changes. Pan (stereo output only): a mono bus uses the constant-power law (L = cos((p+1)pi/4), R = sin((p+1)pi/4), -3 dB each at the centre); a stereo bus is balanced (L = min(1, 1-p), R = min(1, 1+p)). Without pan, a bus goes to every channel at its gain.
            duration=first (the stream decides the length), longest (until the last bus ends; the stream is silence after its end) or shortest (until the first bus or the stream ends; looping buses never end). overload=clip limits the output to full scale and counts the clipped samples; overload=limit bends everything above -1 dBFS softly towards full scale.
            Buses that are regular files are read as needed and always deliver. In a run that is not real time (files and pipes alone), every bus is waited for (a FIFO bus waits for its writer, a slow writer slows the mix): the same bytes every run. In a real-time run (--capture or --live; live=auto), a FIFO or pipe bus is read without blocking: a block waits at most wait= for it; what has not come is silence, and as many of its late frames are dropped when they come, so it never drifts; late frames are said on stderr at the end and counted in --stats (lateFrames). Before a FIFO's first byte, its end of file means no writer yet. live=on reads FIFO buses in real time in any run; live=off waits for every bus in any run.
            Live: main-gain, main-mute, out-gain, and for bus K busK.gain, busK.mute, busK.pan (set mix.bus1.gain -12); gains glide over 10 ms.
            """,
        parameters: [Keys.input, Keys.duration, Keys.mainGain, Keys.mainMute, Keys.outGain, Keys.overload, Keys.wait, Keys.live],
        primary: Keys.input.name,
        example: "arecord -t raw -f S16_LE -r 48000 -c 2 | aupipe --live --in-format s16le:48000:2 mix input=backing.wav,gain=-12 -t wav | opusenc - out.opus",
        exercise: UnitExercise(["input=\(UnitExercise.sideInput),gain=-6", "duration=longest"], length: .longestOfStreamAndSideInput),
        manual: manualText,
        make: { v in try MixUnit(v) })

    private struct Bus {
        package let reader: any SideInputStream
        package var gainDB: Double
        package var pan: Double?
        package var mute: Bool
        /// One glide per output channel: gain × mute × pan for that channel.
        package var glides: [GainGlide]
        /// Whether the pan law is settled: it depends on the bus's channel count, which a live
        /// FIFO bus tells only with its header.
        package var panResolved: Bool
    }

    private let specs: [BusSpec]
    private let policy: LengthPolicy
    private let limit: Bool
    private let wait: StreamDuration
    /// Whether FIFO buses are read without blocking.
    private let liveMode: LiveSetting
    private var mainDB: Double, mainMute: Bool, outDB: Double
    private var main = GainGlide(factor: 1), out = GainGlide(factor: 1)
    private var buses: [Bus] = []
    private var channels = 1
    private var scratch: UnsafeMutablePointer<Float>?
    private var scratchFrames = 0
    private var finished = false
    /// `duration=longest` after the stream's end: the buses alone make the output.
    private var draining = false
    private var clipped = 0

    package init(_ v: ParameterValues) throws {
        specs = v[Keys.input]
        guard !specs.isEmpty else {
            throw AUPipeError.usage("mix: needs at least one input=PATH (a file, a FIFO or <(command)) to mix into the stream")
        }
        policy = v[Keys.duration]
        limit = v[Keys.overload] == .limit
        wait = v[Keys.wait]
        liveMode = v[Keys.live]
        mainDB = v[Keys.mainGain]
        mainMute = v[Keys.mainMute]
        outDB = v[Keys.outGain]
    }

    deinit { scratch?.deallocate() }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        let input = context.input, maxFrames = context.maxFrames
        channels = input.channels
        let glideFrames = GainGlide.frames(atRate: input.sampleRate)
        main = GainGlide(factor: mainMute ? 0 : GainGlide.factor(dB: mainDB))
        out = GainGlide(factor: GainGlide.factor(dB: outDB))
        main.glideFrames = glideFrames
        out.glideFrames = glideFrames
        buses = []
        for (i, spec) in specs.enumerated() {
            if spec.pan != nil && channels != 2 {
                throw AUPipeError.usage("mix: input \(i + 1) (\(spec.path)): pan needs stereo output; the stream has \(counted(channels, "channel"))")
            }
            let reader = try UnitStreams.opener.sideInput(SideInputRequest(spec: spec, index: i + 1, target: input, maxFrames: maxFrames,
                                       realTime: context.realTime.isRealTime(liveMode), wait: wait))
            var bus = Bus(reader: reader, gainDB: spec.gain, pan: spec.pan, mute: spec.mute, glides: [], panResolved: reader.sourceChannels > 0)
            bus.glides = (0..<channels).map { c in
                var g = GainGlide(factor: factor(bus, channel: c))
                g.glideFrames = glideFrames
                return g
            }
            buses.append(bus)
        }
        guard wait.frames(atRate: input.sampleRate) <= input.sampleRate else {
            throw AUPipeError.usage("mix: wait=\(wait) is longer than 1 s; waits are 0...1000 ms")
        }
        scratchFrames = maxFrames
        scratch = .allocate(capacity: maxFrames * channels)
        return input
    }

    /// The pan gain of `bus` for output channel `c` (see the type's comment for the laws).
    private func panGain(_ bus: Bus, channel c: Int) -> Double {
        guard let p = bus.pan, channels == 2 else { return 1 }
        if bus.reader.sourceChannels == 1 {
            let angle = (p + 1) * Double.pi / 4
            return c == 0 ? cos(angle) : sin(angle)
        }
        return c == 0 ? min(1, 1 - p) : min(1, 1 + p)
    }

    private func factor(_ bus: Bus, channel c: Int) -> Float {
        bus.mute ? 0 : Float(Decibels.amplitude(bus.gainDB) * panGain(bus, channel: c))
    }

    public func maxOutputFrames(forInput inputFrames: Int) -> Int { inputFrames }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        if finished { return 0 }
        main.apply(input, into: output, frames: frames, channels: channels, accumulate: false)
        let produced = try addBuses(into: output, frames: frames)
        if produced < frames { finished = true }
        finish(output, frames: produced)
        return produced
    }

    /// Adds every bus to `output`; returns the frames the mix keeps under `duration=shortest`.
    private func addBuses(into output: UnsafeMutablePointer<Float>, frames: Int) throws -> Int {
        guard let scratch else { return frames }
        var keep = frames
        var lastEnd = 0
        var anyRunning = false
        for b in buses.indices {
            let (_, endedAt) = try buses[b].reader.read(into: scratch, frames: frames)
            if !buses[b].panResolved && buses[b].reader.sourceChannels > 0 {
                for c in 0..<channels { buses[b].glides[c].set(factor(buses[b], channel: c)) }
                buses[b].panResolved = true
            }
            try add(bus: b, from: scratch, into: output, frames: frames)
            if let end = endedAt {
                if policy == .shortest { keep = min(keep, end) }
                lastEnd = max(lastEnd, end)
            } else {
                anyRunning = true
            }
        }
        if policy == .longest && draining { return anyRunning ? frames : lastEnd }
        return keep
    }

    /// Adds bus `b`'s block, scaled by its per-channel factors: a flat loop when they are equal
    /// and still (the usual case), a loop with per-frame steps while one glides.
    private func add(bus b: Int, from scratch: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, frames: Int) throws {
        let k0 = buses[b].glides[0].factor
        var still = true // plain loops: a closure here costs an allocation per block in debug builds
        for c in 0..<channels where buses[b].glides[c].isGliding || buses[b].glides[c].factor != k0 { still = false }
        if still {
            if k0 != 0 { for i in 0..<(frames * channels) { output[i] += scratch[i] * k0 } }
            return
        }
        for c in 0..<channels {
            // Each channel glides on its own (pan), so walk the channel's samples with a stride.
            var g = buses[b].glides[c]
            for f in 0..<frames { output[f * channels + c] += scratch[f * channels + c] * g.next() }
            buses[b].glides[c] = g
        }
    }

    /// Out gain and overload.
    private func finish(_ output: UnsafeMutablePointer<Float>, frames: Int) {
        if out.isGliding || out.factor != 1 {
            out.apply(UnsafePointer(output), into: output, frames: frames, channels: channels, accumulate: false)
        }
        let count = frames * channels
        if limit {
            let knee: Float = 0.891_250_9 // -1 dBFS
            for i in 0..<count {
                let x = output[i], a = abs(x)
                if a > knee {
                    output[i] = (x < 0 ? -1 : 1) * (knee + (1 - knee) * Float(tanh(Double((a - knee) / (1 - knee)))))
                    clipped += 1
                }
            }
        } else {
            var n = 0 // without branches, so it vectorizes
            for i in 0..<count {
                let x = output[i]
                n &+= (x > 1 || x < -1) ? 1 : 0
                output[i] = x > 1 ? 1 : (x < -1 ? -1 : x)
            }
            clipped += n
        }
    }

    /// `duration=longest`: after the stream's end, the buses go on (the stream is silence) until
    /// the last of them ends.
    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        // The stream has ended: what came late in real time is said now (nothing is late after).
        for b in buses { b.reader.reportLate() }
        // A stop signal ends the mix with the stream: the buses are not rendered to their ends.
        guard policy == .longest, !finished, !StopSignal.received,
              !buses.allSatisfy({ $0.reader.ended || $0.reader.spec.loop }) else { return (0, true) }
        if !draining {
            draining = true
            for b in buses { b.reader.streamHasEnded() }
        }
        let frames = min(capacity, scratchFrames)
        output.update(repeating: 0, count: frames * channels)
        let produced = try addBuses(into: output, frames: frames)
        finish(output, frames: produced)
        let done = produced < frames || buses.allSatisfy { $0.reader.ended || $0.reader.spec.loop }
        return (produced, done)
    }

    public var clippedSamples: Int { clipped }

    public var sideInputs: [(role: String, path: String)] {
        specs.enumerated().map { ("mix's input \($0.offset + 1)", $0.element.path) }
    }

    public var statsNote: String? {
        buses.map { b in
            let r = b.reader
            var s = "bus \(r.index) \(r.spec.path): \(r.conversionNote); \(counted(Int(r.framesDelivered), "frame"))"
            if r.underrunFrames > 0 { s += ", \(counted(Int(r.underrunFrames), "frame")) late (silence)" }
            if r.loops > 0 { s += ", looped \(counted(r.loops, "time"))" }
            if r.tornBytes > 0 { s += ", \(counted(r.tornBytes, "byte")) of a torn last frame dropped" }
            if r.missingBytes > 0 { s += ", ended \(counted(Int(r.missingBytes), "byte")) short of its header's size" }
            return s
        }.joined(separator: "; ") + (limit ? "; \(counted(Int(clipped), "sample")) limited" : "")
    }

    /// The buses' late frames (real time: silence given for them), all buses together.
    public var statsFigures: [StatsFigure] {
        [StatsFigure("lateFrames", Double(buses.reduce(0) { $0 + $1.reader.underrunFrames }))]
    }

    // MARK: live parameters

    public var liveParameterNames: [String] {
        (1...max(1, specs.count)).flatMap { k in Keys.bus.map { "bus\(k).\($0.name)" } }
    }

    public func liveParameter(_ name: String) -> ParameterDescriptor? {
        guard let (k, key) = busKey(name), k >= 1, k <= specs.count else { return nil }
        return Keys.bus.first { $0.name == key }?.descriptor.renamed(name)
    }

    /// `bus3.gain` → (3, "gain").
    private func busKey(_ name: String) -> (Int, String)? {
        guard name.hasPrefix("bus"), let dot = name.firstIndex(of: "."), let k = Int(name[name.index(name.startIndex, offsetBy: 3)..<dot]) else { return nil }
        return (k, String(name[name.index(after: dot)...]))
    }

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        if let v = Keys.mainGain.value(ifNamed: name, from: value) {
            mainDB = v; main.glide(to: mainMute ? 0 : GainGlide.factor(dB: v))
        } else if let m = Keys.mainMute.value(ifNamed: name, from: value) {
            mainMute = m; main.glide(to: m ? 0 : GainGlide.factor(dB: mainDB))
        } else if let v = Keys.outGain.value(ifNamed: name, from: value) {
            outDB = v; out.glide(to: GainGlide.factor(dB: v))
        } else {
            guard let (k, key) = busKey(name), k >= 1, k <= buses.count else { throw AUPipeError.usage("mix: \(name) is not live") }
            if let v = Keys.busGain.value(ifNamed: key, from: value) {
                buses[k - 1].gainDB = v
            } else if let m = Keys.busMute.value(ifNamed: key, from: value) {
                buses[k - 1].mute = m
            } else if let p = Keys.busPan.value(ifNamed: key, from: value) {
                guard channels == 2 else { throw AUPipeError.usage("mix: pan needs stereo output") }
                buses[k - 1].pan = p
            } else {
                throw AUPipeError.usage("mix: \(name) is not live")
            }
            for c in 0..<channels { buses[k - 1].glides[c].glide(to: factor(buses[k - 1], channel: c)) }
        }
    }

    /// What `get` reads besides the parameters: each bus's late and delivered frames.
    public var readableFigures: [String] { buses.indices.flatMap { ["bus\($0 + 1).late", "bus\($0 + 1).frames"] } }

    public func parameterValue(_ name: String) -> String? {
        switch name {
        case Keys.mainGain.name: return formatNumber(mainDB)
        case Keys.mainMute.name: return mainMute ? "1" : "0"
        case Keys.outGain.name: return formatNumber(outDB)
        default:
            guard let (k, key) = busKey(name), k >= 1, k <= buses.count else { return nil }
            let b = buses[k - 1]
            switch key {
            case Keys.busGain.name: return formatNumber(b.gainDB)
            case Keys.busMute.name: return b.mute ? "1" : "0"
            case Keys.busPan.name: return b.pan.map(formatNumber) ?? "none"
            case "late": return "\(b.reader.underrunFrames)"
            case "frames": return "\(b.reader.framesDelivered)"
            default: return nil
            }
        }
    }
}
