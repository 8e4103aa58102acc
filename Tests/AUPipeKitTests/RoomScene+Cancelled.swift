import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeFormats

extension RoomScene {
    /// Runs `aec ref=far.wav ARGS` over the scene (the far end written into `dir`): the output,
    /// as long as the microphone, and the `--stats` note.
    func cancelled(_ args: [String] = [], in dir: URL) throws -> (out: [Int16], note: String?) {
        let format = StreamFormat(encoding: .s16le, sampleRate: Self.rate, channels: 1)
        let ref = dir.appendingPathComponent("far.wav")
        try Data(TestSignals.wav(EchoSceneTests.floats(far), format)).write(to: ref)
        let r = try TestSignals.run([["aec", "ref=\(ref.path)"] + args], TestSignals.wav(EchoSceneTests.floats(mic), format)) { $0.stats = .text }
        let bytes = TestSignals.audio(r.bytes, r.report)
        let out = (0..<bytes.count / 2).map { Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8) }
        #expect(out.count == mic.count)
        return (out, r.report.stages.first?.note)
    }
}
