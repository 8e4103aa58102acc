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
}

/// Every failure aupipe reports: one line of text for stderr and the status to exit with.
///
/// The message names what is wrong and, where there is one, the fix:
/// `gain: db=70 is out of range -120...60 dB`.
public struct AUPipeError: Error, Equatable, CustomStringConvertible, Sendable {
    public var status: ExitStatus
    public var message: String

    public init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    public static func usage(_ message: String) -> AUPipeError { AUPipeError(.usage, message) }
    public static func data(_ message: String) -> AUPipeError { AUPipeError(.dataError, message) }
    public static func noInput(_ message: String) -> AUPipeError { AUPipeError(.noInput, message) }
    public static func io(_ message: String) -> AUPipeError { AUPipeError(.ioError, message) }
    public static func cannotCreate(_ message: String) -> AUPipeError { AUPipeError(.cannotCreate, message) }

    /// The same error with `context: ` put in front of its message (a unit's or a file's name).
    public func prefixed(_ context: String) -> AUPipeError {
        AUPipeError(status, "\(context): \(message)")
    }

    public var description: String { message }
}

/// A count and its noun for messages, plural unless the count is 1: `counted(1, "channel")`
/// is `1 channel`, `counted(6, "channel")` is `6 channels`. `noun` takes a plain `s`.
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
