import Foundation

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
struct EqualizerAPOFile {
    var preamp = 0.0
    var bands: [FilterBand] = []

    /// Reads and parses `path` (a text file, read once at prepare); `unit` starts messages.
    static func read(path: String, unit: String) throws -> EqualizerAPOFile {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw AUPipeError(.noInput, "\(unit): cannot read file=\(path): \((error as NSError).localizedDescription); give an Equalizer APO parametric file (AutoEQ's ParametricEQ.txt)")
        }
        guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
            throw AUPipeError(.dataError, "\(unit): \(path) is not text")
        }
        var file = EqualizerAPOFile()
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            do { try file.parse(line: String(raw)) } catch let e as LineError {
                throw AUPipeError(.dataError, "\(unit): \(path):\(i + 1): \(e.message)")
            }
        }
        return file
    }

    struct LineError: Error { let message: String }

    /// Parses one line into `preamp` or `bands`.
    mutating func parse(line raw: String) throws {
        var line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if let hash = line.firstIndex(of: "#") { line = String(line[..<hash]).trimmingCharacters(in: .whitespaces) }
        guard !line.isEmpty else { return }
        guard let colon = line.firstIndex(of: ":") else { throw LineError(message: "'\(line)' is not 'Preamp: N dB' or 'Filter N: ON TYPE Fc F Hz ...'") }
        let directive = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let words = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if directive == "preamp" {
            guard let v = words.first.flatMap(DecimalNumber.parse), words.count <= 2 else { throw LineError(message: "Preamp needs a number of dB, e.g. 'Preamp: -6.2 dB'") }
            preamp += v
            return
        }
        guard directive == "filter" || (directive.hasPrefix("filter") && Int(directive.dropFirst(6).trimmingCharacters(in: .whitespaces)) != nil) else {
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
    static let kinds: [String: FilterKind] = [
        "PK": .peaking, "PEQ": .peaking, "LSC": .lowshelf, "LS": .lowshelf, "HSC": .highshelf, "HS": .highshelf,
        "LP": .lowpass, "LPQ": .lowpass, "HP": .highpass, "HPQ": .highpass, "BP": .bandpass, "NO": .notch, "AP": .allpass,
    ]

    /// The band of `TYPE [N dB] Fc F Hz [Gain G dB] [Q Q | BW Oct B]`, or nil for `NONE`.
    static func band(_ words: [String]) throws -> FilterBand? {
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
