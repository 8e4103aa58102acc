/// `aec`'s band split (`bands=auto`, from 24 kHz), as WebRTC's AEC3 splits 48 kHz: the
/// microphone (and the far end, `decimateReference`) split into a low band at the stream's
/// rate / `factor` (`factor`: the whole number nearest rate / 16000, so the low band is near
/// 16 kHz), on which the whole canceller runs, and the rest, the upper band, which is only
/// delayed to match and given a gain per frame (`UpperBandGain`) before the two are added
/// back together.
///
/// The split is complementary: the upper band is the input delayed by `roundTripDelay`, less
/// the low band decimated and interpolated back (`BandSplitFilter`), so with the low band
/// untouched and a gain of 1 the output is the input delayed, to float precision. The
/// latency it adds is `roundTripDelay` stream frames (2 ms), plus the canceller's own
/// `coreLatency` low-band frames (× `factor`) by which the upper band is held back.
/// Frames are `frameFrames` stream frames (a multiple of `factor`). Allocates only in `init`.
package final class EchoBandSplit {
    /// Stream frames per low-band frame, and stream frames per DSP frame.
    package let factor: Int, frameFrames: Int
    /// Channels in (microphones, and the far end with `ref-channel=`), and which of them are
    /// microphones (the output's channels, in order).
    package let channels: Int, micChannels: [Int]
    /// The canceller's latency, in low-band frames (samples).
    package let coreLatency: Int
    /// The input's low band, one DSP frame (`frameFrames / factor` × `channels`, interleaved),
    /// written by `analyse`.
    package let low: UnsafeMutablePointer<Float>
    /// The canceller's output, one low-band frame (× microphones), read by `synthesise`.
    package let lowOut: UnsafeMutablePointer<Float>
    /// The upper band's gain and comfort noise.
    package let gain: UpperBandGain
    private let filter: BandSplitFilter
    private let decimator: BandDecimator
    /// Interpolates the low band as it went in (for the upper band) and as it came out.
    private let analysisInterpolator, synthesisInterpolator: BandInterpolator
    /// One frame at the stream's rate: the low band interpolated (all channels, then microphones).
    private let wide: UnsafeMutablePointer<Float>
    /// The microphones' upper bands, a ring of `ringFrames` DSP frames (interleaved), holding
    /// them back by `coreLatency` × `factor` stream frames; the frame read from it (the delay
    /// need not be whole DSP frames).
    private let upper, upperOut: UnsafeMutablePointer<Float>
    /// The canceller's latency beyond whole frames (low-band samples), and the input's low band
    /// held back by it for the upper band's gain (that many samples, then this frame's).
    private let heldFrames: Int
    private let lowHeld: UnsafeMutablePointer<Float>
    private let ringFrames: Int
    private var ringNext = 0

    /// For `channels` interleaved input channels of which `micChannels` are microphones, frames
    /// of `frameFrames` stream frames split by `factor` (≥ 2), with `coreLatency` low-band
    /// frames of latency in the canceller, `speakers` channels of far end from `ref=` (0: none)
    /// and frames of `frameSeconds`; `comfort`: fill what the upper band's gain takes of its
    /// background with noise.
    package init(factor: Int, frameFrames: Int, channels: Int, micChannels: [Int], speakers: Int, coreLatency: Int, frameSeconds: Double, comfort: Bool) {
        precondition(frameFrames % factor == 0)
        self.factor = factor
        self.frameFrames = frameFrames
        self.channels = channels
        self.micChannels = micChannels
        self.coreLatency = coreLatency
        let lowFrames = frameFrames / factor, mics = micChannels.count
        filter = BandSplitFilter(factor: factor)
        decimator = BandDecimator(filter: filter, channels: channels, maxFrames: frameFrames)
        analysisInterpolator = BandInterpolator(filter: filter, channels: channels, maxFrames: lowFrames)
        synthesisInterpolator = BandInterpolator(filter: filter, channels: mics, maxFrames: lowFrames)
        low = .allocate(capacity: lowFrames * channels)
        low.initialize(repeating: 0, count: lowFrames * channels)
        lowOut = .allocate(capacity: lowFrames * mics)
        lowOut.initialize(repeating: 0, count: lowFrames * mics)
        wide = .allocate(capacity: frameFrames * channels)
        wide.initialize(repeating: 0, count: frameFrames * channels)
        ringFrames = (coreLatency + lowFrames - 1) / lowFrames + 1
        upper = .allocate(capacity: ringFrames * frameFrames * mics)
        upper.initialize(repeating: 0, count: ringFrames * frameFrames * mics)
        upperOut = .allocate(capacity: frameFrames * mics)
        upperOut.initialize(repeating: 0, count: frameFrames * mics)
        // The gain compares the output's top band with the microphone's of the same samples: whole
        // frames back through its ring, the rest through `lowHeld`.
        gain = UpperBandGain(filter: filter, lowFrames: lowFrames, mics: mics, latencyFrames: coreLatency / lowFrames, comfort: comfort, frameSeconds: frameSeconds)
        heldFrames = coreLatency % lowFrames
        lowHeld = .allocate(capacity: (lowFrames + heldFrames) * channels)
        lowHeld.initialize(repeating: 0, count: (lowFrames + heldFrames) * channels)
        referenceDecimator = speakers > 0 ? BandDecimator(filter: filter, channels: speakers, maxFrames: frameFrames) : nil
        referenceWide = .allocate(capacity: frameFrames * max(1, speakers))
        referenceWide.initialize(repeating: 0, count: frameFrames * max(1, speakers))
    }

    deinit {
        for p in [low, lowOut, wide, upper, upperOut, lowHeld, referenceWide] { p.deallocate() }
    }

    /// The far end's decimation (`ref=`), and one DSP frame of it at the stream's rate.
    private let referenceDecimator: BandDecimator?
    private let referenceWide: UnsafeMutablePointer<Float>

    /// One DSP frame of the far end into `out` (`frameFrames / factor` low-band frames ×
    /// loudspeakers): `read` fills a frame at the stream's rate (`frameFrames` frames, the
    /// buffer it is given), which is decimated as the microphone is. Returns what `read` does.
    package func decimateReference(into out: UnsafeMutablePointer<Float>, read: (UnsafeMutablePointer<Float>, Int) throws -> Int?) rethrows -> Int? {
        guard let referenceDecimator else { return nil }
        let r = try read(referenceWide, frameFrames)
        referenceDecimator.run(referenceWide, frames: frameFrames, into: out)
        return r
    }

    /// Stream frames the split delays the output by, beyond the canceller's latency × `factor`.
    package var roundTripDelay: Int { filter.roundTripDelay }

    /// The stream frames the output comes late in all: the split's and the canceller's.
    package var latencyFrames: Int { roundTripDelay + coreLatency * factor }

    /// Splits one DSP frame of `input` (`frameFrames` × `channels`, interleaved): its low band
    /// into `low`, the microphones' upper bands into the ring.
    package func analyse(_ input: UnsafePointer<Float>) {
        let mics = micChannels.count
        decimator.run(input, frames: frameFrames, into: low)
        analysisInterpolator.run(low, frames: frameFrames / factor, into: wide)
        let u = upper + ringNext * frameFrames * mics
        // Index loops: `enumerated()` allocates per element in unoptimized builds.
        for m in micChannels.indices {
            let c = micChannels[m], delayed = decimator.delayed(c)
            for f in 0..<frameFrames { u[f * mics + m] = delayed[f] - wide[f * channels + c] }
        }
        if heldFrames == 0 {
            gain.addMicrophone(low, channels: channels, micChannels: micChannels)
        } else {
            // The held samples, then this frame's; the gain reads the first `lowFrames`, the last `heldFrames` stay.
            let lowFrames = frameFrames / factor, held = heldFrames * channels
            (lowHeld + held).update(from: low, count: lowFrames * channels)
            gain.addMicrophone(lowHeld, channels: channels, micChannels: micChannels)
            lowHeld.update(from: lowHeld + lowFrames * channels, count: held)
        }
    }

    /// One DSP frame of output into `output` (`frameFrames` × microphones, interleaved): the
    /// canceller's output in `lowOut`, interpolated, plus the upper band of `coreLatency`
    /// earlier with its gain (`UpperBandGain`, from how much of the low band's top the
    /// canceller kept).
    package func synthesise(into output: UnsafeMutablePointer<Float>) {
        let mics = micChannels.count
        // The samples `coreLatency` × `factor` before the frame analysed last began (which is at `ringNext`).
        let total = ringFrames * frameFrames, from = (ringNext * frameFrames - coreLatency * factor + total) % total
        let first = min(frameFrames, total - from)
        upperOut.update(from: upper + from * mics, count: first * mics)
        if first < frameFrames { (upperOut + first * mics).update(from: upper, count: (frameFrames - first) * mics) }
        ringNext = (ringNext + 1) % ringFrames
        synthesisInterpolator.run(lowOut, frames: frameFrames / factor, into: output)
        gain.apply(upper: upperOut, frames: frameFrames, lowOut: lowOut, adding: output)
    }
}
