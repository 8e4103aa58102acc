import AUPipeFormats
import AUPipeGraph
import CEbur128

/// EBU R128 / ITU-R BS.1770-4 measurement of one stream, on libebur128: momentary (400 ms),
/// short-term (3 s) and integrated loudness (gated), loudness range (EBU Tech 3342), sample peak
/// and true peak (oversampled), per stream: each channel weighted as BS.1770-4 says for where
/// it plays (`LoudnessChannelMap`: 1.41 for side and surround speakers, LFE left out).
///
/// Opened in histogram mode (`EBUR128_MODE_HISTOGRAM`): without it libebur128 mallocs a list
/// entry for every 100 ms gating block and every short-term block (the heap grows with the
/// stream, ~11 allocations per second), and `ebur128_loudness_range` allocates at each call. In
/// histogram mode a block's energy is counted in one of 1000 bins 0.1 LU wide, from -70 to +30
/// LUFS: nothing is allocated after `init`, and gated figures are quantised to those bins.
package final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?
    package let channels: Int

    /// Nil when libebur128 refuses the format (rates below 16 Hz or above 2.8 MHz). `layout`
    /// places the channels (its count is `channels`; the default layout for the count if nil).
    package init?(channels: Int, sampleRate: Int, layout: ChannelLayout? = nil) {
        let mode = EBUR128_MODE_I.rawValue | EBUR128_MODE_LRA.rawValue | EBUR128_MODE_S.rawValue | EBUR128_MODE_M.rawValue
            | EBUR128_MODE_SAMPLE_PEAK.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue | EBUR128_MODE_HISTOGRAM.rawValue
        guard let s = ebur128_init(UInt32(channels), UInt(sampleRate), Int32(bitPattern: mode)) else { return nil }
        state = s
        self.channels = channels
        // libebur128's own map covers five channels in its order; every channel is set here.
        let speakers = layout?.speakers ?? ChannelLayout.standard(channels: channels).speakers
        for c in 0..<channels {
            let speaker = c < speakers.count ? speakers[c] : .unknown
            _ = ebur128_set_channel(s, UInt32(c), Int32(LoudnessChannelMap.ebur128Channel(speaker).rawValue))
        }
    }

    deinit { ebur128_destroy(&state) }

    /// Adds `frames` interleaved frames.
    package func add(_ samples: UnsafePointer<Float>, frames: Int) {
        _ = ebur128_add_frames_float(state, samples, frames)
    }

    /// Loudness of the last 400 ms, LUFS (-inf for silence).
    package var momentary: Double { read(ebur128_loudness_momentary) }
    /// Loudness of the last 3 s, LUFS (-inf for silence).
    package var shortTerm: Double { read(ebur128_loudness_shortterm) }
    /// Gated loudness of the whole stream so far, LUFS (-inf before 400 ms or for silence).
    package var integrated: Double { read(ebur128_loudness_global) }
    /// Loudness range of the stream so far, LU (0 before 3 s).
    package var range: Double { read(ebur128_loudness_range) }

    /// Largest true peak of any channel so far, linear (1 = full scale).
    package var truePeak: Double { maxOverChannels(ebur128_true_peak) }
    /// Largest sample of any channel so far, linear.
    package var samplePeak: Double { maxOverChannels(ebur128_sample_peak) }
    /// Largest true peak of any channel in the frames of the last `add`, linear.
    package var lastTruePeak: Double { maxOverChannels(ebur128_prev_true_peak) }
    /// Largest sample of any channel in the frames of the last `add`, linear.
    package var lastSamplePeak: Double { maxOverChannels(ebur128_prev_sample_peak) }

    private func read(_ f: (UnsafeMutablePointer<ebur128_state>?, UnsafeMutablePointer<Double>?) -> Int32) -> Double {
        var v = -Double.infinity
        return f(state, &v) == 0 ? v : -.infinity
    }

    private func maxOverChannels(_ f: (UnsafeMutablePointer<ebur128_state>?, UInt32, UnsafeMutablePointer<Double>?) -> Int32) -> Double {
        var peak = 0.0
        for c in 0..<channels {
            var v = 0.0
            if f(state, UInt32(c), &v) == 0 { peak = max(peak, v) }
        }
        return peak
    }
}

/// A linear level as dB (20·log10), -inf for 0.
package func decibels(linear v: Double) -> Double { v > 0 ? 20 * v.log10 : -.infinity }
