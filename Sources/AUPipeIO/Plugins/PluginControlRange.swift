import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// What a plugin's input control port accepts, a `ParameterKind` of its own:
/// a number in the port's unit within its bounds (either may be absent), a whole number for an
/// integer port, 0 or 1 (or on/off) for a toggle, or a scale point's label.
public struct PluginControlRange: Sendable {
    public var minimum: Double?
    public var maximum: Double?
    /// The port's unit symbol ("dB", "Hz"), or "".
    public var unit: String
    public var isInteger: Bool
    public var isToggled: Bool
    /// The bounds are fractions of the sample rate (LADSPA `HINT_SAMPLE_RATE`): a value is then
    /// range-checked once the rate is known, when the unit is prepared.
    public var isSampleRateRelative: Bool
    public var scalePoints: [PluginScalePoint]

    /// The range of an input control port.
    public init(_ port: PluginPort) {
        minimum = port.minimum.map(Self.double)
        maximum = port.maximum.map(Self.double)
        unit = port.unit ?? ""
        isInteger = port.isInteger
        isToggled = port.isToggled
        isSampleRateRelative = port.isSampleRateRelative
        scalePoints = port.scalePoints
    }

    /// A float as the double it reads as (0.01, not 0.009999999776482582).
    package static func double(_ v: Float) -> Double { Double("\(v)") ?? Double(v) }

    /// `Hz, 0...0.5 × the sample rate`, `integer, 0...4; or one of off (0), on (1)`.
    public var description: String {
        var parts: [String] = []
        if !unit.isEmpty { parts.append(unit) }
        if isToggled {
            parts.append("toggle, 0/1 (on/off)")
        } else {
            if isInteger { parts.append("integer") }
            let scale = isSampleRateRelative ? " × the sample rate" : ""
            switch (minimum, maximum) {
            case let (lo?, hi?): parts.append("\(formatNumber(lo))...\(formatNumber(hi))\(scale)")
            case let (lo?, nil): parts.append("\(formatNumber(lo))\(scale) or more")
            case let (nil, hi?): parts.append("up to \(formatNumber(hi))\(scale)")
            case (nil, nil): parts.append("any number")
            }
        }
        var text = parts.joined(separator: ", ")
        if !scalePoints.isEmpty {
            text += "; or one of " + scalePoints.map { "\(Self.word($0.label)) (\(formatNumber(Self.double($0.value))))" }.joined(separator: ", ")
        }
        return text
    }

    /// A scale point's label as a word to type: lowercase, spaces and other characters as `_`
    /// ("Low shelf" → `low_shelf`); a label that is a number ("+5", "-10": eg-amp's) stays as
    /// written, since `-5` and `+5` must not both become `_5`.
    package static func word(_ label: String) -> String {
        if DecimalNumber.parse(label) != nil { return label }
        return PluginPort.symbols(forNames: [label])[0]
    }

    /// Parses `text`: a scale point's label (as typed by `word`, or exactly, case-insensitive),
    /// on/off for a toggle, or a number with or without the unit. Nil with the reason when it
    /// is none of these, or out of range (`outOfRange` true then).
    package func parse(_ text: String) -> (value: Double?, problem: String?, outOfRange: Bool) {
        let lower = text.lowercased()
        if let point = scalePoints.first(where: { Self.word($0.label) == lower || $0.label.lowercased() == lower }) {
            return (Self.double(point.value), nil, false)
        }
        if isToggled {
            switch lower {
            case "on", "yes", "true": return (1, nil, false)
            case "off", "no", "false": return (0, nil, false)
            default: break
            }
        }
        guard let v = ParameterDescriptor.number(text, unit: unit) else {
            return (nil, "\(ParameterDescriptor.notANumber(text, unit: unit) ?? "is not a number"); expected \(description)", false)
        }
        // A control port holds a 32-bit float: a value beyond its range would become infinity.
        if v.magnitude > Double(Float.greatestFiniteMagnitude) {
            return (nil, "is beyond the range of a plugin's control port (a 32-bit float, at most \(Float.greatestFiniteMagnitude) either way)", true)
        }
        if isInteger || isToggled, v != v.rounded() { return (nil, "is not a whole number; expected \(description)", false) }
        if !isSampleRateRelative, let problem = rangeProblem(v) { return (nil, problem, true) }
        return (v, nil, false)
    }

    /// Why `v` is outside the bounds (already in the port's unit), or nil. Bounds print as the
    /// 32-bit floats a port holds: `4.8`, not the 4.800000000000001 of 0.0001 × 48000.
    package func rangeProblem(_ v: Double, minimum: Double? = nil, maximum: Double? = nil, atRate rate: Double? = nil) -> String? {
        let lo = minimum ?? self.minimum, hi = maximum ?? self.maximum
        let u = unit.isEmpty ? "" : " " + unit
        let at = rate.map { " at \(formatNumber($0)) Hz" } ?? ""
        let f = Self.text
        if isToggled, v != 0, v != 1 { return "is out of range 0...1 (a toggle)" }
        switch (lo, hi) {
        case let (lo?, hi?) where v < lo || v > hi: return "is out of range \(f(lo))...\(f(hi))\(u)\(at)"
        case let (lo?, nil) where v < lo: return "is out of range: at least \(f(lo))\(u)\(at)"
        case let (nil, hi?) where v > hi: return "is out of range: at most \(f(hi))\(u)\(at)"
        default: return nil
        }
    }

    /// The bounds of a port whose bounds are fractions of the sample rate, at `rate` Hz: the
    /// fractions as written (0.0001, not the float 0.000099999997) times the rate.
    package func bounds(atRate rate: Double) -> (minimum: Double?, maximum: Double?) {
        (minimum.map { $0 * rate }, maximum.map { $0 * rate })
    }

    /// A port's value as the shortest text that reads back as the same 32-bit float.
    package static func text(_ v: Double) -> String { formatNumber(double(Float(v))) }
}

extension PluginControlRange: ParameterKind {
    public var typeDescription: String { description }

    public func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue {
        let (value, problem, outside) = parse(text)
        if let value { return .number(value) }
        throw outside ? parameter.outOfRange(text, unit: unit, problem ?? "is out of range")
                      : parameter.malformed(text, unit: unit, problem ?? "is not a value of this port")
    }
}
