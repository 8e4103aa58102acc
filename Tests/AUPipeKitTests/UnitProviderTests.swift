import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `invert`: multiplies every sample by −1 while `on` is 1. A unit that exists only in this
/// test, to show that a unit found at run time (a provider's) is listed, described, suggested,
/// built in a chain and controlled exactly as a built-in is.
final class InvertUnit: AudioUnit, LiveControllable {
    static let on = Parameter("on", .boolean, default: true, help: "invert (1) or pass through (0)", live: true)

    static let descriptor = UnitDescriptor(
        name: "invert",
        summary: "flip the polarity of every sample",
        details: "Multiplies every sample by -1 while on=1. on is live.",
        parameters: [on],
        primary: nil,
        example: "aupipe invert < in.wav > out.wav",
        make: { v in InvertUnit(on: v[on]) })

    private var on: Bool
    private var channels = 1

    init(on: Bool) { self.on = on }

    func prepare(_ context: PrepareContext) throws -> StreamFormat {
        channels = context.input.channels
        return context.input
    }

    func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        let k: Float = on ? -1 : 1
        for i in 0..<(frames * channels) { output[i] = input[i] * k }
        return frames
    }

    func setParameter(_ name: String, to value: ParameterValue) throws {
        guard let v = Self.on.value(ifNamed: name, from: value) else { throw AUPipeError.usage("invert: \(name) is not live") }
        on = v
    }

    func parameterValue(_ name: String) -> String? { name == "on" ? (on ? "1" : "0") : nil }
}

/// A provider that offers `invert`, as a plugin host would offer what it finds.
struct TestUnits: UnitProvider {
    var descriptors: [UnitDescriptor] { [InvertUnit.descriptor] }
}

@Suite struct UnitProviderTests {
    let registry = UnitRegistry(providers: [BuiltInUnits(), TestUnits()])

    /// Runs the command line `args` in-process with the test registry.
    func aupipe(_ args: [String]) -> (status: Int32, out: String, err: String) {
        let console = BufferConsole()
        let status = AUPipeCommand.main(args, console: console, registry: registry)
        return (status, console.stdout.joined(separator: "\n"), console.stderr.joined(separator: "\n"))
    }

    @Test func aProvidedUnitIsListedAndDescribed() {
        let units = aupipe(["units"])
        #expect(units.status == 0 && units.out.contains("invert    flip the polarity of every sample"), "\(units.out)")
        #expect(units.out.contains("on=1~"), "its live parameter is marked: \(units.out)")
        let help = aupipe(["help", "invert"])
        #expect(help.status == 0 && help.out.contains("flip the polarity") && help.out.contains("on"), "\(help.out)")
        // The standard registry does not know it.
        #expect(!HelpText.units().contains("invert"))
    }

    @Test func aMisspelledProvidedUnitIsSuggested() {
        let r = aupipe(["invret"])
        #expect(r.status == 64 && r.err.contains("did you mean 'invert'"), "\(r.err)")
    }

    @Test func aProvidedUnitRunsInAChain() throws {
        let format = StreamFormat(encoding: .f32le, sampleRate: 8000, channels: 2)
        let samples: [Float] = [0.5, -0.25, 0.125, 0, -1, 0.75]
        let pipeline = try Pipeline(chain: [["gain", "0"], ["invert"]], options: PipelineOptions(), registry: registry)
        let sink = MemorySink()
        let report = try pipeline.run(source: MemorySource(TestSignals.wav(samples, format)), sink: sink)
        #expect(TestSignals.decode(TestSignals.audio(sink.bytes, report), .f32le) == samples.map { -$0 })
    }

    @Test func aProvidedUnitIsControlledLive() throws {
        let descriptor = try registry.descriptor(named: "invert")
        let unit = try descriptor.instantiate([])
        let targets = ControlTargets(entries: [ControlTargets.Entry(name: "invert", label: nil, descriptor: descriptor, unit: unit)])
        #expect(targets.execute("set invert.on 0") == "ok invert.on 0")
        #expect(targets.execute("get invert.on") == "invert.on 0")
        #expect(targets.execute("list").contains("1.on (invert) 0"))
        let harness = try UnitHarness(unit, format: StreamFormat(encoding: .f32le, sampleRate: 8000, channels: 2), block: 1)
        #expect(try harness.run([0.5, -0.5]) == [0.5, -0.5], "set took effect")
    }
}
