import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// Why `aupipe compare` did not pass: a reason a script can test (`--json`'s `reason`) and the
/// sentence the report prints.
public struct CompareFailure: Equatable, Sendable {
    public var reason: Reason
    public var message: String

    public enum Reason: String, Sendable {
        // The streams were compared and differ (status 1).
        /// The lengths differ, beyond what `--allow-length` allows.
        case lengthsDiffer = "lengths-differ"
        /// Lengths may differ (`--allow-length`), but one stream is empty: nothing was compared.
        case nothingCompared = "nothing-compared"
        /// A NaN or infinity in one stream where the other has another value.
        case nonFiniteDiffer = "non-finite-differ"
        /// No tolerance given and some sample differs.
        case samplesDiffer = "samples-differ"
        case maxLSB = "max-lsb"
        case maxDiffDB = "max-diff-db"
        case minSNR = "min-snr"
        // The streams could not be compared (the sysexits status of the cause).
        /// Different rates or channel counts (65).
        case formatsDiffer = "formats-differ"
        /// Different sample types without `--ignore-format` (65).
        case encodingsDiffer = "encodings-differ"
        /// An input could not be opened (66).
        case cannotOpen = "cannot-open"
        /// An input is malformed: no header, a bad one, truncated, or ending mid-frame (65).
        case badInput = "bad-input"
        /// Reading failed (74).
        case readError = "read-error"

        /// True when the samples were not compared at all: the exit status is then not 1.
        public var cannotCompare: Bool {
            switch self {
            case .formatsDiffer, .encodingsDiffer, .cannotOpen, .badInput, .readError: return true
            default: return false
            }
        }

        /// The reason of an error that stopped a comparison, from its exit status.
        package static func of(_ error: AUPipeError) -> Reason {
            switch error.status {
            case .noInput: return .cannotOpen
            case .ioError: return .readError
            default: return .badInput
            }
        }
    }

    package init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }
}
