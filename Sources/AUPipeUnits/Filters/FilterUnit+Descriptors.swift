import AUPipeFormats
import AUPipeGraph

/// The descriptors of the filter units: one per name sox and ffmpeg users type, aliases included.
extension FilterUnit {
    /// What every filter's help says about live changes.
    package static func liveNote(_ live: String) -> String { "\(live) live (--control): a change glides over 20 ms, the coefficients designed again every 32 frames from parameters moving geometrically (frequency, Q) or in dB (gain); the state is kept, so it does not click. Double-precision state (transposed direct form II), each channel its own; exact length, no delay." }

    package static let cookbookNote = "Coefficients from the RBJ Audio EQ Cookbook."

    package static let highpassDescriptor = passDescriptor("highpass", .highpass)
    package static let lowpassDescriptor = passDescriptor("lowpass", .lowpass)
    package static let bandpassDescriptor = widthDescriptor("bandpass", .bandpass, summary: "band-pass filter (0 dB at freq)", q: defaultQ, example: "bandpass 1k q=2")
    package static let notchDescriptor = widthDescriptor("notch", .notch, summary: "band-reject (notch) filter", q: defaultQ, example: "notch 50 q=10")
    package static let bandrejectDescriptor = widthDescriptor("bandreject", .notch, summary: "band-reject filter: sox's name for notch", q: defaultQ, example: "bandreject 50 q=10")
    package static let allpassDescriptor = widthDescriptor("allpass", .allpass, summary: "all-pass filter: flat, phase -180 degrees at freq", q: defaultQ, example: "allpass 1k q=0.7")
    package static let equalizerDescriptor = widthDescriptor("equalizer", .peaking, summary: "peaking equaliser: gain dB at freq", q: 1, example: "equalizer 1k gain=-6 q=2")
    package static let lowshelfDescriptor = shelfDescriptor("lowshelf", .lowshelf, freq: nil, slope: 1)
    package static let highshelfDescriptor = shelfDescriptor("highshelf", .highshelf, freq: nil, slope: 1)
    /// sox's `bass`: a low shelf, gain first, 100 Hz, slope 0.5.
    package static let bassDescriptor = shelfDescriptor("bass", .lowshelf, freq: 100, slope: 0.5)
    /// sox's `treble`: a high shelf, gain first, 3 kHz, slope 0.5.
    package static let trebleDescriptor = shelfDescriptor("treble", .highshelf, freq: 3000, slope: 0.5)

    package static let defaultQ = FilterBand.defaultQ

    /// The frequency given, or a usage error naming the unit.
    package static func frequency(_ v: ParameterValues, _ name: String) throws -> Double {
        guard let f = v[Keys.freq] else { throw AUPipeError.usage("\(name) needs a frequency: \(name) 1k, or \(name) freq=1k") }
        return f
    }

    package static func build(_ name: String, _ band: FilterBand, _ v: ParameterValues) throws -> FilterUnit {
        do { try band.check() } catch let e as FilterBand.BandError {
            throw AUPipeError.usage("\(name): the filter \(e.message.replacing("gives q=", with: "has q="))")
        }
        return FilterUnit(name: name, bands: [band], only: v[Keys.channels])
    }

    package static func passDescriptor(_ name: String, _ kind: FilterKind) -> UnitDescriptor {
        let pass = kind == .highpass ? "above" : "below"
        let details = "Passes what is \(pass) freq. order=N (1...8, default 2) is Butterworth as scipy's butter(N) designs it, -3 dB at freq, 6 dB per octave per order, as cascaded second-order sections (and a first-order one for odd N); type=linkwitz-riley (even N) is Butterworth of N/2 twice, -6 dB at freq, so that a lowpass and a highpass at one freq sum flat. q=Q gives one cookbook section with that Q instead (order 2). \(liveNote("freq, and q when given, are"))"
        let parameters: [any AnyParameter] = [Keys.freq, Keys.order, Keys.type, Keys.q, Keys.channels]
        return UnitDescriptor(
            name: name,
            summary: "\(kind == .highpass ? "high" : "low")-pass filter: Butterworth of order 1...8, or Linkwitz-Riley",
            details: details,
            parameters: parameters,
            primary: Keys.freq.name,
            example: "aupipe \(name) \(kind == .highpass ? "80" : "8k order=4") < in.wav > out.wav",
            exercise: UnitExercise(kind == .highpass ? ["200", "order=4", "type=linkwitz-riley"] : ["3k", "order=5"]),
            manual: manual(details: details, parameters: parameters, primary: Keys.freq.name),
            make: { v in
                var band = FilterBand(kind: kind, frequency: try frequency(v, name), order: v[Keys.order], response: v[Keys.type])
                if let q = v[Keys.q] {
                    if v.explicit.contains(Keys.order.name) && band.order != 2 { throw AUPipeError.usage("\(name): q= makes one second-order section; drop order=\(band.order), or drop q=") }
                    band.width = .q(q)
                }
                return try build(name, band, v)
            })
    }

    package static func widthDescriptor(_ name: String, _ kind: FilterKind, summary: String, q: Double, example: String) -> UnitDescriptor {
        let qKey = Keys.q(default: q)
        let gain = kind == .peaking
        let details = "\(cookbookNote)\(gain ? " gain= is the gain at freq; far from it, 0 dB. Its width is between the points at half the gain in dB." : " The width is between the -3 dB points.") width= gives it in Hz (Q = freq / width, as sox's h) or octaves (1oct) instead of q=. \(liveNote(gain ? "freq, gain and q are" : "freq and q are"))"
        let parameters: [any AnyParameter] = [Keys.freq] + (gain ? [Keys.gain] : []) + [qKey, Keys.width, Keys.channels]
        return UnitDescriptor(
            name: name,
            summary: summary,
            details: details,
            parameters: parameters,
            primary: Keys.freq.name,
            example: "aupipe \(example) < in.wav > out.wav",
            exercise: UnitExercise(gain ? ["1k", "gain=-6", "q=2"] : kind == .notch ? ["1k", "width=1oct"] : ["1k"]),
            manual: manual(details: details, parameters: parameters, primary: Keys.freq.name),
            make: { v in
                if v.explicit.contains(qKey.name) && v[Keys.width] != nil { throw AUPipeError.usage("\(name): give q= or width=, not both") }
                let band = FilterBand(kind: kind, frequency: try frequency(v, name), gain: gain ? v[Keys.gain] : 0, width: v[Keys.width] ?? .q(v[qKey]))
                return try build(name, band, v)
            })
    }

    /// A shelf; with `freq`, sox's `bass`/`treble`: the gain is the bare value and freq has a default.
    package static func shelfDescriptor(_ name: String, _ kind: FilterKind, freq: Double?, slope: Double) -> UnitDescriptor {
        let slopeKey = Keys.slope(default: slope)
        let freqKey: any AnyParameter = freq.map { Keys.freq(default: $0) } ?? Keys.freq
        let side = kind == .lowshelf ? "below" : "above"
        let sox = freq == nil ? "" : "sox's \(name): gain first, freq \(formatNumber(freq!)) Hz and slope \(formatNumber(slope)) by default. "
        let details = "\(sox)\(cookbookNote) Gain dB \(side) freq, half of it (in dB) at freq, 0 dB far \(kind == .lowshelf ? "above" : "below"). The width is slope=S (1: steepest without a bump) or q=Q instead. \(liveNote("freq, gain and q are"))"
        let parameters: [any AnyParameter] = freq == nil ? [Keys.freq, Keys.gain, Keys.shelfQ, slopeKey, Keys.channels] : [Keys.gain, freqKey, Keys.shelfQ, slopeKey, Keys.channels]
        let primary = freq == nil ? Keys.freq.name : Keys.gain.name
        return UnitDescriptor(
            name: name,
            summary: freq == nil ? "\(kind == .lowshelf ? "low" : "high")-shelf filter: gain dB \(side) freq" : "sox's \(name): a \(kind == .lowshelf ? "low" : "high") shelf at \(formatNumber(freq!)) Hz",
            details: details,
            parameters: parameters,
            primary: primary,
            example: freq == nil ? "aupipe \(name) \(kind == .lowshelf ? "200" : "6k") gain=4 < in.wav > out.wav" : "aupipe \(name) \(kind == .lowshelf ? "6" : "-3") < in.wav > out.wav",
            exercise: UnitExercise(freq == nil ? ["300", "gain=6"] : ["6"]),
            manual: manual(details: details, parameters: parameters, primary: primary),
            make: { v in
                if v[Keys.shelfQ] != nil && v.explicit.contains(slopeKey.name) { throw AUPipeError.usage("\(name): give q= or slope=, not both") }
                let f = try freq.map { v[Keys.freq(default: $0)] } ?? frequency(v, name)
                let band = FilterBand(kind: kind, frequency: f, gain: v[Keys.gain], width: v[Keys.shelfQ].map { .q($0) } ?? .slope(v[slopeKey]))
                return try build(name, band, v)
            })
    }

    package static let biquadDetails = "y[n] = (b0 x[n] + b1 x[n-1] + b2 x[n-2] - a1 y[n-1] - a2 y[n-2]) / a0, as ffmpeg's and sox's biquad; the poles must lie inside the unit circle. Double-precision state, each channel its own; exact length. Not live."
    package static let biquadDescriptor = UnitDescriptor(
        name: "biquad",
        summary: "a second-order section with your own coefficients",
        details: biquadDetails,
        parameters: Keys.raw + [Keys.channels],
        primary: nil,
        example: "aupipe biquad b0=0.2 b1=0.4 b2=0.2 a1=-0.6 a2=0.4 < in.wav > out.wav",
        exercise: UnitExercise(["b0=0.5", "b1=0.2", "a1=-0.3"]),
        manual: manual(details: biquadDetails, parameters: Keys.raw + [Keys.channels], primary: nil),
        make: { v in
            let k = Keys.raw.map { v[$0] }
            guard k[3] != 0 else { throw AUPipeError.usage("biquad: a0=0; a0 divides every coefficient") }
            let c = BiquadCoefficients(b0: k[0], b1: k[1], b2: k[2], a0: k[3], a1: k[4], a2: k[5])
            guard c.isStable else { throw AUPipeError.usage("biquad: a1=\(formatNumber(k[4])) a2=\(formatNumber(k[5])) (with a0=\(formatNumber(k[3]))) put a pole on or outside the unit circle: the output would grow without bound; need |a2| < a0 and |a1| < a0 + a2") }
            return FilterUnit(name: "biquad", bands: [FilterBand(kind: .biquad, frequency: 0, raw: c)], only: v[Keys.channels])
        })
}
