import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// How far the lengths of A and B may differ under `compare --allow-length`. Whatever it
/// allows, a comparison passes only when some frames were compared: an empty stream never
/// passes against a non-empty one.
public enum LengthAllowance: Equatable, Sendable {
    /// `--allow-length=N`: at most `N` frames (0 or more) of difference.
    case frames(Int64)
    /// `--allow-length=P%`: at most `P` percent (0...100) of A's length, rounded down to frames.
    case percent(Double)

    /// Parses the value after `--allow-length=`: a whole number of frames (`480`, `480f`) or a
    /// percentage (`1%`). Nil when it is neither, or out of range.
    package static func parse(_ text: String) -> LengthAllowance? {
        if text.hasSuffix("%") {
            guard let p = Double(text.dropLast()), p.isFinite, (0...100).contains(p) else { return nil }
            return .percent(p)
        }
        let digits = text.hasSuffix("f") ? String(text.dropLast()) : text
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let n = Int64(digits) else { return nil }
        return .frames(n)
    }

    /// The largest difference in frames allowed when A has `framesA` frames.
    package func limit(framesA: Int64) -> Int64 {
        switch self {
        case .frames(let n): return n
        case .percent(let p): return Int64((Double(framesA) * p / 100).rounded(.down))
        }
    }

    /// How the allowance reads in a report: `--allow-length=10`, `--allow-length=1%`.
    package var option: String {
        switch self {
        case .frames(let n): return "--allow-length=\(n)"
        case .percent(let p): return "--allow-length=\(formatNumber(p))%"
        }
    }

    /// `--allow-length` alone: 1 % of A's length. Bounded, so that a golden test's gate never
    /// passes a truncated output whatever its length (an unbounded flag passed any prefix);
    /// 1 % covers an encoder's padding on a clip of a few seconds (an MP3 frame, Opus's
    /// pre-skip); a larger or exact bound is given after `=`.
    package static let bare = LengthAllowance.percent(1)
}
