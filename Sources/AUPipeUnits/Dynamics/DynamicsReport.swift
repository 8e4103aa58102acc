import AUPipeFormats
import AUPipeGraph

/// The `--stats` line and JSON figures of `compressor` and `gate`.
package enum DynamicsReport {
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
