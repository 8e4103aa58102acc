/// The residual echo suppressor's frame coherence between the microphone D and the echo
/// estimate Ŷ (Ŷ-weighted over the bins) with what the room's background alone takes from it
/// given back: the coherence the gain's test of a near end reads.
///
/// Why: in a bin of echo alone D = Y + V, Y the echo (Ŷ to within the filter's misadjustment) and
/// V the background (noise, babble), uncorrelated with the far end; the magnitude-squared
/// coherence of D with Ŷ is then about |Ŷ|²/(|Ŷ|² + |V|²). Under babble at 5–8 dB SNR about a
/// third of bench/aec's frames of echo alone were more incoherent than the suppressor's allowance
/// (`backgroundMargin` times the running median, at most `mostIncoherence`) and got the near end's
/// gentle suppression: half to two thirds of those scenes' residual echo. Multiplying a bin's
/// coherence by (|Ŷ|² + N)/|Ŷ|², N the suppressor's noise floor (the least of C's smoothed power
/// over 2–4 s: at most the background's power there), gives back what a background at its floor
/// takes, and no more: a near talker adds power the floor does not hold, and their bins stay
/// incoherent. The frames this takes for echo alone are those whose incoherence the background
/// explains, most where Ŷ is weak against the floor.
///
/// Only that test reads it. The allowance's running median, the model's adaptation (echo alone:
/// coherence ≥ `echoCoherence`), an echo-path change's end and the per-bin tests keep the
/// coherence as measured: with the median from the restored coherence the allowance fell to its
/// floor and loud frames whose incoherence is the filter's misadjustment were taken for a near end
/// (recorded voice, pink noise at 20 dB SNR: −2.0 dB of echo-only ERLE); with the model adapting
/// on the frames it passes, a quiet near talker leaked into it (figures in bench/README.md, "The
/// residual under babble").
/// Per frame: Σ_k min(Syy[k], coh[k]·(Syy[k] + N[k])), with Syy Ŷ's smoothed power.
package enum BackgroundCoherence {
    /// Σ over `bins` bins, from bin 0 up, of min(`syy`, `coherence`·(`syy` + `noise`)): the
    /// suppressor's Ŷ-weighted coherence sum with the background at its floor given back.
    /// `coherence` 0...1 per bin; `syy` Ŷ's smoothed power and `noise` the floor (the suppressor's scale).
    package static func weighted(_ coherence: UnsafePointer<Float>, syy: UnsafePointer<Float>, noise: UnsafePointer<Float>, bins: Int) -> Float {
        var sum: Float = 0
        for k in 0..<bins {
            let y = syy[k]
            sum += y > 0 ? min(y, coherence[k] * (y + noise[k])) : 0
        }
        return sum
    }
}
