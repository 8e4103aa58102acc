import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// The parametric-EQ text of Equalizer APO, as AutoEQ publishes it for headphones:
///
///     Preamp: -6.2 dB
///     Filter 1: ON PK Fc 105 Hz Gain -3.1 dB Q 0.70
///     Filter 2: ON LSC Fc 105 Hz Gain 5.5 dB Q 0.70
///
/// Filter types: PK (peaking), LSC/HSC and LS/HS (shelves; `LSC 12 dB` gives the slope in dB
/// per octave, S = dB/12), LP/HP (Butterworth, Q 1/√2), LPQ/HPQ (with Q), BP, NO, AP (with Q or
/// `BW Oct`). `OFF` filters, `#` comments and blank lines are skipped. Anything else is
/// refused with its file and line.
package struct EqualizerAPOFile {
    package var preamp = 0.0
    package var bands: [FilterBand] = []

    /// Reads and parses `path` (a text file, read once at prepare); `unit` starts messages.
    package static func read(path: String, unit: String) throws -> EqualizerAPOFile {
        guard let bytes = contents(of: path) else {
            throw AUPipeError(.noInput, "\(unit): cannot read file=\(path): \(String(cString: strerror(errno))); give an Equalizer APO parametric file (AutoEQ's ParametricEQ.txt)")
        }
        // UTF-8 (with or without a byte-order mark), else Latin-1, as Windows tools may write it.
        let text = String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
        var file = EqualizerAPOFile()
        // Split on any line end: "\r\n" is one Character in Swift, and "\n" alone would not match it.
        for (i, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            do { try file.parse(line: String(raw)) } catch let e as LineError {
                throw AUPipeError(.dataError, "\(unit): \(path):\(i + 1): \(e.message)")
            }
        }
        return file
    }

    /// The bytes of the file at `path` (at most `maxBytes`), or nil with errno set. Plain POSIX
    /// reads: the units' target links neither Foundation nor the IO layer.
    package static func contents(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < maxBytes {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
        }
        errno = EFBIG
        return nil
    }

    /// The longest file read: 1 MiB, a thousand times AutoEQ's largest.
    package static let maxBytes = 1 << 20

    /// `text` without spaces, tabs, carriage returns or a byte-order mark at either end.
    package static func trimmed<S: StringProtocol>(_ text: S) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{FEFF}" }
        return String(text.drop(while: blank).reversed().drop(while: blank).reversed())
    }

    package struct LineError: Error { let message: String }

    /// Parses one line into `preamp` or `bands`.
    package mutating func parse(line raw: String) throws {
        var line = Self.trimmed(raw)
        if let hash = line.firstIndex(of: "#") { line = Self.trimmed(line[..<hash]) }
        guard !line.isEmpty else { return }
        guard let colon = line.firstIndex(of: ":") else { throw LineError(message: "'\(line)' is not 'Preamp: N dB' or 'Filter N: ON TYPE Fc F Hz ...'") }
        let directive = Self.trimmed(line[..<colon]).lowercased()
        let words = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if directive == "preamp" {
            guard let v = words.first.flatMap(DecimalNumber.parse), words.count <= 2 else { throw LineError(message: "Preamp needs a number of dB, e.g. 'Preamp: -6.2 dB'") }
            preamp += v
            return
        }
        guard directive == "filter" || (directive.hasPrefix("filter") && Int(Self.trimmed(directive.dropFirst(6))) != nil) else {
            throw LineError(message: "'\(directive)' is not supported (only Preamp: and Filter: lines of the parametric format; Channel:, Include:, GraphicEQ: and the rest of Equalizer APO are not)")
        }
        guard words.count >= 2 else { throw LineError(message: "a Filter line needs ON or OFF and a type") }
        switch words[0].uppercased() {
        case "OFF": return
        case "ON": break
        default: throw LineError(message: "expected ON or OFF after 'Filter:', found '\(words[0])'")
        }
        if let band = try Self.band(Array(words.dropFirst())) { bands.append(band) }
    }

    /// Equalizer APO's types, by the kinds they map to.
    package static let kinds: [String: FilterKind] = [
        "PK": .peaking, "PEQ": .peaking, "LSC": .lowshelf, "LS": .lowshelf, "HSC": .highshelf, "HS": .highshelf,
        "LP": .lowpass, "LPQ": .lowpass, "HP": .highpass, "HPQ": .highpass, "BP": .bandpass, "NO": .notch, "AP": .allpass,
    ]

    /// The band of `TYPE [N dB] Fc F Hz [Gain G dB] [Q Q | BW Oct B]`, or nil for `NONE`.
    package static func band(_ words: [String]) throws -> FilterBand? {
        let type = words[0].uppercased()
        if type == "NONE" { return nil }
        guard let kind = kinds[type] else {
            throw LineError(message: "filter type \(words[0]) is not supported; aupipe reads \(kinds.keys.sorted().joined(separator: ", "))")
        }
        var i = 1
        var values: [String: Double] = [:]
        var slopeDB: Double?
        func number(_ at: Int, _ what: String) throws -> Double {
            guard at < words.count, let v = DecimalNumber.parse(words[at]) else { throw LineError(message: "\(what) needs a number after it") }
            return v
        }
        if kind.isShelf, i < words.count, let v = DecimalNumber.parse(words[i]) {  // `LSC 12 dB`: slope in dB per octave
            slopeDB = v
            i += words.count > i + 1 && words[i + 1].lowercased() == "db" ? 2 : 1
        }
        while i < words.count {
            let key = words[i].lowercased()
            switch key {
            case "fc", "gain", "q":
                values[key] = try number(i + 1, words[i])
                i += 2
            case "bw":
                guard i + 1 < words.count, words[i + 1].lowercased() == "oct" else { throw LineError(message: "BW needs 'Oct' and a number, e.g. 'BW Oct 1.0'") }
                values["bw"] = try number(i + 2, "BW Oct")
                i += 3
            case "hz", "db": i += 1
            default: throw LineError(message: "'\(words[i])' is not understood (Fc, Gain, Q, BW Oct)")
            }
        }
        guard let fc = values["fc"], fc > 0 else { throw LineError(message: "a \(type) filter needs 'Fc F Hz'") }
        var band = FilterBand(kind: kind, frequency: fc, gain: values["gain"] ?? 0)
        if let q = values["q"] { band.width = .q(q) } else if let bw = values["bw"] { band.width = .octaves(bw) }
        else if let s = slopeDB { band.width = .slope(min(1, s / 12)) }
        
        if type.hasSuffix("Q") && values["q"] == nil { throw LineError(message: "a \(type) filter needs 'Q N'") }
        if [.bandpass, .notch, .allpass].contains(kind) && band.width == nil { throw LineError(message: "a \(type) filter needs 'Q N' or 'BW Oct N'") }
        if kind.hasGain && values["gain"] == nil { throw LineError(message: "a \(type) filter needs 'Gain G dB'") }
        if let q = values["q"], !(0.01...100).contains(q) { throw LineError(message: "Q \(formatNumber(q)) is outside 0.01...100") }
        return band
    }
}
