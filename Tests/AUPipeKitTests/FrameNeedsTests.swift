import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// The frame services a unit declares in its descriptor (`FrameNeeds`): every built-in unit
/// that declares fixed frames or a latency gives the same bytes at any block size, with the
/// length its descriptor promises.
@Suite struct FrameNeedsTests {
    /// The arguments each declaring unit runs with here: its descriptor's exercise when that
    /// needs no side stream and keeps the length (so a new unit needs no line here), else a line.
    static func arguments(for unit: String, in dir: URL) throws -> [String]? {
        switch unit {
        case "resample": return ["16000"]
        case "loudnorm", "denoise", "agc": return []
        case "compressor": return ["threshold=-30", "lookahead=5ms"]
        case "limiter": return ["-12", "true-peak=1"]
        case "aec":
            let ref = dir.appendingPathComponent("ref.wav")
            let far = TestSignals.wav(PreprocessUnitTests.noise(5000, level: 0.1, seed: 3), StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 1))
            try Data(far).write(to: ref)
            return ["ref=\(ref.path)"]
        default:
            guard let exercise = try? BuiltInUnits().descriptors.first(where: { $0.name == unit })?.exercise, exercise.length == .same,
                  !exercise.arguments.contains(where: { $0.contains("{") }) else { return nil }
            return exercise.arguments
        }
    }

    @Test func everyDeclaringUnitIsTheSameAtAnyBlockSizeWithItsLength() throws {
        let dir = TestScratch.root.appendingPathComponent("frameneeds-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Stereo, as the descriptors' exercises are written for (EveryUnitBlockSizeTests).
        let format = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2)
        let frames = 4801 // not a whole number of any frame size
        var signal = PreprocessUnitTests.noise(frames * 2, level: 0.2, seed: 11)
        signal[2000] = 0.9
        let input = TestSignals.wav(signal, format)
        let declaring = BuiltInUnits().descriptors.filter { $0.frameNeeds != .none }
        #expect(Set(declaring.map(\.name)).isSuperset(of: ["resample", "loudnorm", "denoise", "agc"]))
        for d in declaring {
            let args = try Self.arguments(for: d.name, in: dir)
            #expect(args != nil, "\(d.name) declares frame services: give it arguments in FrameNeedsTests.arguments")
            guard let args else { continue }
            var outputs: [[UInt8]] = []
            for block in [1, 7, 480, 4096] {
                let r = try TestSignals.run([[d.name] + args], input, block: block)
                outputs.append(TestSignals.audio(r.bytes, r.report))
                let expected = d.name == "resample" ? Resampler.expectedOutputFrames(Int64(frames), from: 48000, to: 16000) : Int64(frames)
                #expect(r.report.framesOut == expected, "\(d.name) at --block \(block)f: \(r.report.framesOut) frames, expected \(expected)")
            }
            #expect(outputs.allSatisfy { $0 == outputs[0] }, "\(d.name)'s output changed with the block size")
        }
    }

    @Test func aDeclarationAllowsTheSizesItNames() {
        let two = FrameNeeds(frames: .powerOfTwo(64...8192))
        #expect(two.allows(frameFrames: 512) && !two.allows(frameFrames: 480) && !two.allows(frameFrames: 32))
        let fixed = FrameNeeds(frames: .fixed(16...76800), perChannel: true, latency: true)
        #expect(fixed.allows(frameFrames: 480) && !fixed.allows(frameFrames: 8))
        #expect(!FrameNeeds.none.allows(frameFrames: 1))
        #expect(VoiceParameters.preprocessorFrameNeeds == PreprocessUnit.denoiseDescriptor.frameNeeds)
    }
}
