/// The exit statuses aupipe uses, from BSD's sysexits.h.
public enum ExitStatus: Int32, Sendable {
    case ok = 0
    /// `aupipe compare`: the streams differ beyond the tolerance (diff's convention).
    case differs = 1
    /// EX_USAGE: the command line is wrong (unknown unit, bad parameter, value out of range).
    case usage = 64
    /// EX_DATAERR: the input stream is malformed (bad header, ends mid-frame, unsupported encoding).
    case dataError = 65
    /// EX_NOINPUT: an input file cannot be opened.
    case noInput = 66
    /// EX_UNAVAILABLE: a sound device (or ALSA itself) is missing, busy or cannot do what was asked.
    case unavailable = 69
    /// EX_SOFTWARE: an internal error; a bug in aupipe.
    case software = 70
    /// EX_CANTCREAT: an output file cannot be created.
    case cannotCreate = 73
    /// EX_IOERR: reading or writing failed.
    case ioError = 74
    /// 128 + SIGINT: a run that is not real time was interrupted (after draining and patching).
    case interrupted = 130
    /// 128 + SIGTERM: a run that is not real time was terminated (after draining and patching).
    case terminated = 143
}

/// Every failure aupipe reports: one line of text for stderr and the status to exit with.
///
/// The message names what is wrong and, where there is one, the fix:
/// `gain: db=70 is out of range -120...60 dB`.
public struct AUPipeError: Error, Equatable, CustomStringConvertible, Sendable {
    public var status: ExitStatus
    public var message: String
    /// What went wrong, for code that must tell errors apart without reading the message
    /// (tests, programs built on AUPipeKit); nil where only the message says it.
    public var cause: Cause?

    public init(_ status: ExitStatus, _ message: String, cause: Cause? = nil) {
        self.status = status
        self.message = message
        self.cause = cause
    }

    /// The failures code tells apart.
    public enum Cause: Equatable, Sendable {
        /// No unit of that name; `suggestion` is the did-you-mean, if any.
        case unknownUnit(String, suggestion: String?)
        /// A parameter of a unit (or a signal, or a side input's option) that is wrong.
        case parameter(owner: String, name: String, ParameterProblem)
        /// A channel change a unit cannot choose by itself (2 to 6 channels).
        case channelChoice(from: Int, to: Int)
        /// The input ended wrongly after all its complete frames were written.
        case inputEnd(InputEnd)
        /// A sound device went away mid-run and did not come back (`--capture`, `--play`).
        case deviceLost(option: String, device: String)
        /// The input held no byte at all (no header to read).
        case emptyInput
    }

    /// What is wrong with a parameter.
    public enum ParameterProblem: Equatable, Sendable {
        /// Not the parameter's type (`db=loud`).
        case malformed
        /// The right type, outside the accepted range (`db=70`).
        case outOfRange
        /// No such parameter; `suggestion` is the did-you-mean, if any.
        case unknown(suggestion: String?)
        /// Given twice, or a second bare value.
        case repeated
        /// Required and not given, or given with no value.
        case missing
    }

    /// How an input stream ended wrongly.
    public enum InputEnd: Equatable, Sendable {
        /// The stream ended `bytes` into a frame (those bytes were dropped).
        case midFrame(bytes: Int)
        /// The header declares a size that is not whole frames; `bytes` were dropped.
        case declaredSizeNotWholeFrames(bytes: Int)
        /// The stream ended `missing` bytes short of the `declared` bytes of its header.
        case truncated(missing: UInt64, declared: UInt64)
    }

    public static func usage(_ message: String) -> AUPipeError { AUPipeError(.usage, message) }
    public static func data(_ message: String) -> AUPipeError { AUPipeError(.dataError, message) }
    public static func noInput(_ message: String) -> AUPipeError { AUPipeError(.noInput, message) }
    public static func io(_ message: String) -> AUPipeError { AUPipeError(.ioError, message) }
    public static func cannotCreate(_ message: String) -> AUPipeError { AUPipeError(.cannotCreate, message) }

    /// The same error with `context: ` put in front of its message (a unit's or a file's name).
    public func prefixed(_ context: String) -> AUPipeError {
        AUPipeError(status, "\(context): \(message)", cause: cause)
    }

    public var description: String { message }
}

/// A count and its noun for messages, plural unless the count is 1: `counted(1, "channel")`
/// is `1 channel`, `counted(6, "channel")` is `6 channels`. `noun` takes a plain `s`.
package func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
