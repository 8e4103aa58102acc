import AUPipeFormats

/// A parameter declaration of any value type: what a `UnitDescriptor` or `SignalDescriptor`
/// lists. Its `descriptor` is the runtime description (name, kind, default, help) that parsing,
/// `aupipe units`, `aupipe help`, the manual's agreement test and `--control` use. Typed keys
/// (`Parameter`, `OptionalParameter`, `RepeatedParameter`) conform, and so does a bare
/// `ParameterDescriptor`, for units whose parameters are only known at run time.
public protocol AnyParameter: Sendable {
    var descriptor: ParameterDescriptor { get }
}

extension AnyParameter {
    public var name: String { descriptor.name }
    public var kind: ParameterDescriptor.Kind { descriptor.kind }
    public var help: String { descriptor.help }
    public var typeDescription: String { descriptor.typeDescription }
}

extension ParameterDescriptor: AnyParameter {
    public var descriptor: ParameterDescriptor { self }
}

/// A typed key whose default is part of its declaration, for the test that the default as
/// help prints it reads back as the declared value.
public protocol DefaultedParameter: AnyParameter {
    /// Whether the default's text (`descriptor.defaultValue`), parsed, reads as the typed default.
    func defaultRoundTrips(owner: String) throws -> Bool
}

/// A parameter with a default: `values[key]` is always a `Value`.
///
///     static let ramp = Parameter("ramp", .duration(0...1, bareUnit: .milliseconds), default: .milliseconds(20), help: "fade length")
///     let ramp: StreamDuration = values[Keys.ramp]
public struct Parameter<Value: Equatable & Sendable>: DefaultedParameter {
    public let descriptor: ParameterDescriptor
    public let type: ParameterType<Value>
    public let defaultValue: Value

    /// - Parameters:
    ///   - live: whether `--control` may change it while audio runs (`set UNIT.NAME VALUE`).
    public init(_ name: String, _ type: ParameterType<Value>, default value: Value, help: String, live: Bool = false) {
        descriptor = ParameterDescriptor(name, type.kind, default: type.text(value), help: help, live: live)
        self.type = type
        defaultValue = value
    }

    /// The value of a live change (`setParameter(_:to:)`), when it is of this parameter's type.
    public func value(from value: ParameterValue) -> Value? { type.read(value) }

    /// The value of a live change of the parameter `name`, when `name` is this one's.
    public func value(ifNamed name: String, from value: ParameterValue) -> Value? {
        name == descriptor.name ? type.read(value) : nil
    }

    public func defaultRoundTrips(owner: String) throws -> Bool {
        guard let text = descriptor.defaultValue else { return false }
        return type.read(try descriptor.parse(text, unit: owner)) == defaultValue
    }
}

/// A parameter without a default: `values[key]` is nil unless the user gave it.
public struct OptionalParameter<Value: Equatable & Sendable>: AnyParameter {
    public let descriptor: ParameterDescriptor
    public let type: ParameterType<Value>

    public init(_ name: String, _ type: ParameterType<Value>, help: String, live: Bool = false) {
        descriptor = ParameterDescriptor(name, type.kind, default: nil, help: help, live: live)
        self.type = type
    }

    /// The value of a live change (`setParameter(_:to:)`), when it is of this parameter's type.
    public func value(from value: ParameterValue) -> Value? { type.read(value) }

    /// The value of a live change of the parameter `name`, when `name` is this one's.
    public func value(ifNamed name: String, from value: ParameterValue) -> Value? {
        name == descriptor.name ? type.read(value) : nil
    }
}

/// A parameter that may be given more than once (`mix input=a.wav input=b.wav`):
/// `values[key]` is every value in order, empty when none was given.
public struct RepeatedParameter<Value: Equatable & Sendable>: AnyParameter {
    public let descriptor: ParameterDescriptor
    public let type: ParameterType<Value>

    public init(_ name: String, _ type: ParameterType<Value>, help: String) {
        descriptor = ParameterDescriptor(name, type.kind, default: nil, help: help, repeatable: true)
        self.type = type
    }
}

extension ParameterValues {
    /// A parameter with a default: the value given, or the default.
    public subscript<V>(_ key: Parameter<V>) -> V {
        values[key.name].flatMap(key.type.read) ?? key.defaultValue
    }

    /// A parameter without a default: the value given, or nil.
    public subscript<V>(_ key: OptionalParameter<V>) -> V? {
        values[key.name].flatMap(key.type.read)
    }

    /// A repeatable parameter: the values given, in order (empty when none).
    public subscript<V>(_ key: RepeatedParameter<V>) -> [V] {
        guard case .list(let list) = values[key.name] else { return [] }
        return list.compactMap(key.type.read)
    }
}
