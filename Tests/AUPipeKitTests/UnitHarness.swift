import AUPipeKit

/// One unit alone, with no pipeline, no container and no binary: the equivalent of SwiftNIO's
/// `EmbeddedChannel` for an `AudioUnit`. The harness prepares the unit for a format, pushes
/// interleaved frames through `process` in blocks of `block` frames, drains it, and keeps what
/// it wrote, so that a unit test reads as "push this, expect that":
///
///     let gain = try UnitHarness(["gain", "-6"], format: .init(encoding: .f32le, sampleRate: 48000, channels: 1))
///     let out = try gain.run([0.5, -0.5])
///
/// It calls the unit exactly as `Chain` does (never more than `block` frames per `process`, an
/// output buffer of `maxOutputFrames(forInput:)`, `drain` until done), but skips nothing: a
/// bypassed unit runs too.
final class UnitHarness {
    let unit: any AudioUnit
    /// The format given to `prepare`.
    let input: StreamFormat
    /// The format `prepare` returned: the format of `output`.
    let format: StreamFormat
    /// The most frames one `process` call is given.
    let block: Int
    /// Every sample the unit has written so far, interleaved in `format`.
    private(set) var output: [Float] = []
    /// Frames pushed so far.
    private(set) var framesIn = 0
    private(set) var drained = false
    private var buffer: [Float]

    /// Prepares `unit` for `input`, `block` frames at most per `process`.
    init(_ unit: any AudioUnit, format input: StreamFormat, block: Int = 480, realTime: RealTimePolicy = .offline) throws {
        precondition(block >= 1)
        StreamServices.install() // side inputs and outputs (mix, aec, sidechain=) open through the I/O layer
        self.unit = unit
        self.input = input
        self.block = block
        format = try unit.prepare(PrepareContext(input: input, maxFrames: block, realTime: realTime))
        let capacity = max(unit.maxOutputFrames(forInput: block), block)
        buffer = [Float](repeating: 0, count: capacity * format.channels)
    }

    /// Builds the unit from a command-line word list (`["gain", "-6"]`) through `registry`, as a
    /// chain stage would, and prepares it.
    convenience init(_ words: [String], format input: StreamFormat, block: Int = 480, realTime: RealTimePolicy = .offline,
                     registry: UnitRegistry = UnitRegistry(providers: [BuiltInUnits()])) throws {
        StreamServices.install() // a unit may open its side streams when it is made (tee)
        let descriptor = try registry.descriptor(named: words[0])
        try self.init(try descriptor.instantiate(Array(words.dropFirst())), format: input, block: block, realTime: realTime)
    }

    /// Frames written so far.
    var framesOut: Int { output.count / format.channels }

    /// Pushes interleaved `samples` (whole frames of `input`) in blocks of `block` frames;
    /// returns what the unit wrote for them.
    @discardableResult
    func push(_ samples: [Float]) throws -> [Float] {
        precondition(!drained, "push after drain")
        precondition(samples.count % input.channels == 0, "whole frames only")
        let before = output.count
        let frames = samples.count / input.channels
        var at = 0
        while at < frames {
            let n = min(block, frames - at)
            let written = try samples.withUnsafeBufferPointer { s in
                try buffer.withUnsafeMutableBufferPointer { b in
                    try unit.process(s.baseAddress! + at * input.channels, frames: n, into: b.baseAddress!)
                }
            }
            output += buffer[0..<(written * format.channels)]
            at += n
        }
        framesIn += frames
        return Array(output[before...])
    }

    /// Ends the stream: drains the unit until it is done; returns what it flushed.
    @discardableResult
    func drain() throws -> [Float] {
        precondition(!drained, "drained twice")
        drained = true
        let before = output.count
        let capacity = buffer.count / format.channels
        while true {
            let (frames, done) = try buffer.withUnsafeMutableBufferPointer { try unit.drain(into: $0.baseAddress!, capacity: capacity) }
            output += buffer[0..<(frames * format.channels)]
            if done { break }
        }
        return Array(output[before...])
    }

    /// Pushes `samples`, drains, and returns everything the unit wrote.
    func run(_ samples: [Float]) throws -> [Float] {
        try push(samples)
        try drain()
        return output
    }

    /// A live value or figure as `get` reads it (`aec`'s `erle`), or nil.
    func get(_ name: String) -> String? { (unit as? any LiveControllable)?.parameterValue(name) }

    /// The unit's `--stats` line, figures and clipped samples (nothing for a unit without).
    var statsNote: String? { (unit as? any StatsReporting)?.statsNote }
    var statsFigures: [StatsFigure] { (unit as? any StatsReporting)?.statsFigures ?? [] }
    var clippedSamples: Int { (unit as? any StatsReporting)?.clippedSamples ?? 0 }
}
