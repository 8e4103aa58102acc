import AUPipeFormats
import AUPipeGraph

/// `--control` for the filter units and `eq`: `set highpass.freq 120`, `set eq.band2.gain -3`.
extension FilterUnit {
    /// The live parameters of one band: what `--control` may change.
    package static let liveKeys = ["freq", "gain", "q"]

    /// The band and key a live name addresses: `freq` (a filter unit's only band), `band2.gain` (`eq`).
    private func address(_ name: String) -> (Int, String)? {
        guard perBand else { return Self.liveKeys.contains(name) ? (0, name) : nil }
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0].hasPrefix("band"), let k = Int(parts[0].dropFirst(4)),
              k >= 1, k <= bands.count, Self.liveKeys.contains(parts[1]) else { return nil }
        return (k - 1, parts[1])
    }

    public var liveParameterNames: [String] {
        perBand ? bands.indices.flatMap { i in Self.liveKeys.map { "band\(i + 1).\($0)" } } : []
    }

    public func liveParameter(_ name: String) -> ParameterDescriptor? {
        guard perBand, let (_, key) = address(name) else { return nil }
        let kind: ParameterDescriptor.Kind = switch key {
        case "freq": FilterUnit.Keys.freq.kind
        case "gain": FilterUnit.Keys.gain.kind
        default: FilterUnit.Keys.q.kind
        }
        return ParameterDescriptor(name, kind, default: nil, help: "band \(name.split(separator: ".")[0].dropFirst(4))'s \(key)", live: true)
    }

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        guard let (i, key) = address(name), case .number(let v) = value else { throw AUPipeError.usage("\(self.name): \(name) is not live") }
        let glide = glides.indices.contains(i) ? glides[i] : FilterGlide(bands[i])
        var band = glide.target
        switch key {
        case "freq": band.frequency = v
        case "gain":
            guard band.kind.hasGain else { throw AUPipeError.usage("\(self.name): \(name): a \(band.kind.rawValue) band has no gain") }
            band.gain = v
        default:
            if band.kind.isPass && band.width == nil {
                throw AUPipeError.usage("\(self.name): \(name): this \(band.kind.rawValue) is Butterworth of order \(band.order); q is live only for one made with q=")
            }
            guard band.kind != .biquad else { throw AUPipeError.usage("\(self.name): \(name): a biquad has no q") }
            band.width = .q(v)
        }
        if band.kind != .biquad, cascade != nil, band.frequency >= rate / 2 {
            throw AUPipeError.usage("\(self.name): \(name)=\(formatNumber(v)) is at or above half the stream's rate (\(formatNumber(rate)) Hz)")
        }
        bands[i] = band
        guard glides.indices.contains(i) else { return }  // before prepare: designed then
        guard firstSection[i] != nil else { throw AUPipeError.usage("\(self.name): band\(i + 1) was dropped (at or above \(formatNumber(Self.dropRatio)) × the rate)") }
        if !glides[i].isGliding { gliding += 1 }
        stepLeft = 0  // the new glide's first step is designed at the next frame
        glides[i].start(to: band, frames: glideFrames)
    }

    public func parameterValue(_ name: String) -> String? {
        guard let (i, key) = address(name) else { return nil }
        let band = glides.indices.contains(i) ? glides[i].target : bands[i]
        switch key {
        case "freq": return formatNumber(band.frequency)
        case "gain": return band.kind.hasGain ? formatNumber(band.gain) : nil
        default:
            if case .q(let q) = band.width { return formatNumber(q) }
            return nil
        }
    }
}
