import Testing
import AUPipeKit

/// Typed parameter keys: one declaration gives the runtime descriptor (parsing, help) and the
/// typed read-back.
@Suite struct TypedParameterTests {
    enum Fruit: String, CaseIterable, Sendable { case apple, pear, quince }

    enum Keys {
        static let number = Parameter("number", .number(-10...10, unit: "dB"), default: -3, help: "")
        static let integer = Parameter("integer", .integer(0...9), default: 4, help: "")
        static let rate = OptionalParameter("rate", .rate, help: "")
        static let duration = Parameter("duration", .duration(0...1, bareUnit: .milliseconds), default: .milliseconds(20), help: "")
        static let flag = Parameter("flag", .boolean, default: true, help: "")
        static let encoding = OptionalParameter("encoding", .encoding, help: "")
        static let map = OptionalParameter("map", .channelMap, help: "")
        static let ranges = OptionalParameter("ranges", .timeRanges, help: "")
        static let list = Parameter("list", .numberList(0...10_000, unit: "Hz"), default: [440, 880], help: "")
        static let fruit = Parameter("fruit", .choice(Fruit.self), default: .pear, help: "")
        static let text = Parameter("text", .text(allowed: "ABC", maxLength: 4), default: "AB", help: "")
        static let delay = Parameter("delay", .durationOrAuto(0...2, bareUnit: .milliseconds), default: .auto, help: "")
        static let bus = RepeatedParameter("bus", .bus, help: "")
        static let ref = OptionalParameter("ref", .reference, help: "")
        static let all: [any AnyParameter] = [number, integer, rate, duration, flag, encoding, map, ranges, list, fruit, text, delay, bus, ref]
    }

    func parse(_ arguments: [String]) throws -> ParameterValues {
        try ParameterDescriptor.parse(arguments, parameters: Keys.all.map(\.descriptor), primary: nil, owner: "test")
    }

    func error(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return (error as? AUPipeError)?.message }
    }

    @Test func everyKindReadsBackTyped() throws {
        let v = try parse(["number=-6dB", "integer=7", "rate=44.1k", "duration=480f", "flag=off", "encoding=S16_LE", "map=1,0",
                           "ranges=1.5-3,30-", "list=1k,2.5k", "fruit=QUINCE", "text=cab", "delay=40", "bus=a.wav,gain=-6,loop",
                           "bus=b.raw,format=s16le:8000:1", "ref=far.wav"])
        #expect(v[Keys.number] == -6)
        #expect(v[Keys.integer] == 7)
        #expect(v[Keys.rate] == 44100)
        #expect(v[Keys.duration] == .frames(480))
        #expect(v[Keys.flag] == false)
        #expect(v[Keys.encoding] == .s16le)
        #expect(v[Keys.map] == [1, 0])
        #expect(v[Keys.ranges] == [TimeRange(start: .seconds(1.5), end: .seconds(3)), TimeRange(start: .seconds(30), end: nil)])
        #expect(v[Keys.list] == [1000, 2500])
        #expect(v[Keys.fruit] == .quince)
        #expect(v[Keys.text] == "CAB")
        #expect(v[Keys.delay] == .fixed(.milliseconds(40)))
        #expect(v[Keys.bus].map(\.path) == ["a.wav", "b.raw"])
        #expect(v[Keys.bus][0].loop && v[Keys.bus][0].gain == -6)
        #expect(v[Keys.bus][1].format == StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 1))
        #expect(v[Keys.ref]?.path == "far.wav")
    }

    @Test func defaultsAreValuesAndUnsetOptionalsAreNil() throws {
        let v = try parse([])
        #expect(v[Keys.number] == -3)
        #expect(v[Keys.integer] == 4)
        #expect(v[Keys.duration] == .seconds(0.02))
        #expect(v[Keys.flag] == true)
        #expect(v[Keys.list] == [440, 880])
        #expect(v[Keys.fruit] == .pear)
        #expect(v[Keys.delay] == .auto)
        #expect(v[Keys.rate] == nil && v[Keys.encoding] == nil && v[Keys.map] == nil && v[Keys.ranges] == nil && v[Keys.ref] == nil)
        #expect(v[Keys.bus].isEmpty)
        // The default as help prints it.
        #expect(Keys.duration.descriptor.defaultValue == "20ms")
        #expect(Keys.flag.descriptor.defaultValue == "1")
        #expect(Keys.list.descriptor.defaultValue == "440,880")
        #expect(Keys.delay.descriptor.defaultValue == "auto")
        #expect(Keys.rate.descriptor.defaultValue == nil)
        #expect(Keys.bus.descriptor.isRepeatable)
    }

    @Test func choicesComeFromTheEnumAndRoundTrip() throws {
        guard case .choice(let words) = Keys.fruit.kind else { Issue.record("not a choice"); return }
        #expect(words == ["apple", "pear", "quince"])
        #expect(Keys.fruit.descriptor.defaultValue == "pear")
        for fruit in Fruit.allCases {
            #expect(try parse(["fruit=\(fruit.rawValue)"])[Keys.fruit] == fruit)
        }
        #expect(error { _ = try parse(["fruit=plum"]) } == "test: fruit=plum is not one of apple, pear, quince")
    }

    @Test func durationOrAutoIsAnEnum() throws {
        #expect(try parse(["delay=AUTO"])[Keys.delay] == .auto)
        #expect(try parse(["delay=1.5s"])[Keys.delay] == .fixed(.seconds(1.5)))
        #expect(try parse(["delay=96f"])[Keys.delay].fixedValue == .frames(96))
        #expect(Automatic<StreamDuration>.auto.fixedValue == nil)
        #expect(error { _ = try parse(["delay=3s"]) }?.contains("out of range 0...2000 ms") == true)
    }

    @Test func helpListsEnumChoices() {
        #expect(HelpText.unit(MixUnit.descriptor).contains("one of first, longest, shortest; default first"))
        #expect(HelpText.unit(MixUnit.descriptor).contains("one of auto, on, off; default auto"))
        #expect(HelpText.unit(MuteUnit.descriptor).contains("one of usr1, usr2; no default"))
        #expect(HelpText.gen.contains("one of log, lin; default log"))
        #expect(HelpText.gen.contains("one of white, pink; default white"))
    }

    /// Every declared default, written as help prints it, parses back to the typed default.
    @Test func everyDeclaredDefaultRoundTrips() throws {
        var checked = 0
        let declared = UnitRegistry.all.map { ($0.name, $0.declarations) } + SignalRegistry.all.map { ("gen \($0.name)", $0.declarations) }
            + [("bus", BusSpec.Options.all), ("test", Keys.all)]
        for (owner, keys) in declared {
            for case let key as any DefaultedParameter in keys {
                #expect(try key.defaultRoundTrips(owner: owner), "\(owner) \(key.name)=\(key.descriptor.defaultValue ?? "")")
                checked += 1
            }
        }
        #expect(checked >= 40)
    }

    @Test func liveChangesMatchByKey() {
        #expect(GainUnit.Keys.db.value(ifNamed: "db", from: .number(-6)) == -6)
        #expect(GainUnit.Keys.db.value(ifNamed: "gain", from: .number(-6)) == nil)
        #expect(GainUnit.Keys.db.value(from: .bool(true)) == nil)
        #expect(MuteUnit.Keys.on.value(ifNamed: "on", from: .bool(false)) == false)
        #expect(EchoCancellerUnit.Keys.delay.value(from: .auto) == .auto)
    }

    @Test func busOptionsAreTypedParameters() throws {
        let spec = try BusSpec.parse("bed.wav,gain=0.5x,pan=-0.25,offset=-1.5s,loop,mute=0,format=s16le:16000:2", index: 1)
        #expect(spec.path == "bed.wav")
        #expect(abs(spec.gain - -6.0206) < 1e-4)
        #expect(spec.pan == -0.25)
        #expect(spec.offset == .seconds(-1.5))
        #expect(spec.loop && !spec.mute)
        #expect(spec.format == StreamFormat(encoding: .s16le, sampleRate: 16000, channels: 2))
        #expect(try BusSpec.parse("b.wav,offset=-480f", index: 1).offset == .frames(-480))
        #expect(try BusSpec.parse("b.wav,offset=250", index: 1).offset == .seconds(0.25))
        #expect(try BusSpec.parse(spec.argument, index: 1) == spec)
        #expect(try BusSpec.parse("plain.wav", index: 1) == BusSpec.parse("plain.wav,gain=0,offset=0f,loop=0,mute=off", index: 1))
    }

    @Test func busErrorsKeepTheirWording() {
        func message(_ text: String, owner: String? = nil, allowed: Set<String>? = nil) -> String? {
            error { _ = try BusSpec.parse(text, index: 2, owner: owner, allowed: allowed) }
        }
        #expect(message("x.wav,gain=70") == "mix: input 2 (x.wav): gain=70 is out of range -120...60 dB")
        #expect(message("x.wav,pan=2") == "mix: input 2 (x.wav): pan=2 is out of range -1...1")
        #expect(message("x.wav,gain=0x") == "mix: input 2 (x.wav): gain=0x is not a linear factor in 0.000001x...1000x")
        #expect(message("x.wav,gain=1000x") == nil && message("x.wav,gain=0.000001x") == nil)
        #expect(message("x.wav,gain=loud")?.hasPrefix("mix: input 2 (x.wav): gain=loud is not a number") == true)
        #expect(message("x.wav,offset=soon") == "mix: input 2 (x.wav): offset=soon is not a duration; write e.g. 250ms, -1.5s or 480f")
        #expect(message("x.wav,offset=90000s")?.contains("out of range") == true)
        #expect(message("x.wav,loop=maybe")?.hasPrefix("mix: input 2 (x.wav): loop=maybe is not a boolean") == true)
        #expect(message("x.wav,gain=1,gain=2") == "mix: input 2 (x.wav): gain is given twice")
        #expect(message("x.wav,gian=1") == "mix: input 2 (x.wav): unknown option 'gian'; did you mean 'gain'?")
        #expect(message("x.raw,format=s16le:8000") == "mix: input 2 (x.raw): format 's16le:8000' needs TOKEN:RATE:CHANNELS, e.g. s16le:48000:2")
        #expect(message(",gain=1")?.hasPrefix("mix: input 2 has no path") == true)
        #expect(message("-")?.contains("stdin is the chain's own stream") == true)
        #expect(message("far.wav,gain=3", owner: "aec: ref", allowed: ["format"]) == "aec: ref (far.wav): takes only format= after the path, not 'gain'")
        #expect(error { _ = try EchoCancellerUnit.descriptor.instantiate(["ref=x.raw,format=s16le"]) }?.hasPrefix("aec: ref (x.raw): format 's16le'") == true)
    }

    /// `frame=` has one type, checked the same way by aec, denoise and agc; aec's default is
    /// 20 ms (measured, see `EchoCancellerUnit.Keys.frame`), the others' 10 ms.
    @Test func frameIsDeclaredOnceAndCheckedAlike() throws {
        for (d, def) in [(EchoCancellerUnit.descriptor, "20ms"), (PreprocessUnit.denoiseDescriptor, "10ms"), (PreprocessUnit.agcDescriptor, "10ms")] {
            let frame = try #require(d.parameters.first { $0.name == VoiceParameters.frame.name })
            #expect(frame.typeDescription == VoiceParameters.frame.typeDescription && frame.defaultValue == def, "\(d.name)")
        }
        let input = TestSignals.wav([Float](repeating: 0, count: 1600), StreamFormat(encoding: .s16le, sampleRate: 16000, channels: 1))
        for unit in ["denoise", "agc"] {
            for (frame, frames) in [("5000f", 5000), ("30f", 30), ("8f", 8)] {
                let message = error { _ = try TestSignals.run([[unit, "frame=\(frame)"]], input) }
                #expect(message == "\(unit): frame=\(frame) is \(frames) frames; 2.5...100 ms (40...1600 frames at 16000 Hz) allowed")
            }
            #expect(error { _ = try TestSignals.run([[unit, "frame=40f"]], input) } == nil)
        }
    }
}
