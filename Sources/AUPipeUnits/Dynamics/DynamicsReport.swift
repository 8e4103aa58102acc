import AUPipeFormats
import AUPipeGraph

/// The `--stats` line and JSON figures of `compressor` and `gate`, and the `get` readings of
/// all three dynamics units.
package enum DynamicsReport {
    /// What `get UNIT.NAME` reads besides the parameters: the gain reduction now and the deepest so far.
    package static let readings = ["reduction", "deepest-reduction"]

    /// The reading `name` (dB, two decimals) from the reduction now and the deepest so far, dB
    /// (≥ 0); nil for a name that is not a reading.
    package static func reading(_ name: String, now: Double, deepest: Double) -> String? {
        switch name {
        case "reduction": return String(now + 0, decimals: 2)
        case "deepest-reduction": return String(deepest + 0, decimals: 2)
        default: return nil
        }
    }

    package static func note<L>(_ p: DynamicsProcessor<L>?, sidechain: Sidechain?) -> String? {
        guard let p else { return nil }
        var s = "gain reduction \(String(Double(p.reduction), decimals: 1)) dB at the end, deepest \(String(Double(p.deepestReduction), decimals: 1)) dB"
        if p.lookahead > 0 { s += "; look-ahead \(p.lookahead) frames (compensated)" }
        if let sidechain, sidechain.reader.underrunFrames > 0 { s += "; sidechain late by \(sidechain.reader.underrunFrames) frames (silence)" }
        return s
    }

    package static func figures<L>(_ p: DynamicsProcessor<L>?, sidechain: Sidechain?) -> [StatsFigure] {
        guard let p else { return [] }
        func n(_ v: Float) -> Double { (Double(v) * 100).rounded() / 100 }
        var f = [StatsFigure("reductionDB", n(p.reduction)), StatsFigure("maxReductionDB", n(p.deepestReduction))]
        if let sidechain { f.append(StatsFigure("lateFrames", Double(sidechain.reader.underrunFrames))) }
        return f
    }
}
