import Foundation
import Testing

/// `remix`, `delay` and `reverb` next to sox on the same file: sox's grammar gives sox's
/// samples, a whole-frame delay with `extend=1` is sox's `delay`, and `reverb` is sox's.
@Suite struct RoutingPeerTests {
    static let clip = "clip44k_stereo.wav"

    /// Little-endian f32 samples.
    static func floats(_ data: Data) -> [Float] {
        let d = [UInt8](data)
        return stride(from: 0, to: d.count - 3, by: 4).map {
            Float(bitPattern: UInt32(d[$0]) | UInt32(d[$0 + 1]) << 8 | UInt32(d[$0 + 2]) << 16 | UInt32(d[$0 + 3]) << 24)
        }
    }

    /// aupipe's and sox's output for the same effect words, as f32 samples.
    static func both(aupipe words: String, sox soxWords: String, channels: Int) throws -> (ours: [Float], sox: [Float]) {
        let ours = try CLI.shell("\(CLI.binary) -i \(clip) -t raw --out-format f32le:44100:\(channels) \(words)", cwd: CLI.goldenDirectory)
        try #require(ours.status == 0, "aupipe \(words): \(ours.stderr)")
        let sox = try CLI.shell("sox -V1 \(clip) -t raw -e floating-point -b 32 -L -c \(channels) - \(soxWords)", cwd: CLI.goldenDirectory)
        try #require(sox.status == 0, "sox \(soxWords): \(sox.stderr)")
        return (floats(ours.stdout), floats(sox.stdout))
    }

    @Test("remix gives sox's samples for sox's out-specs", .needs("sox"),
          arguments: [("remix 2 1", "remix 2 1", 2), ("remix 1,2", "remix 1,2", 1), ("remix -", "remix -", 1),
                      ("remix 1v0.5,2v0.25 2i-3 0", "remix 1v0.5,2v0.25 2i-3 0", 3), ("remix scaling=power 1,2", "remix -p 1,2", 1),
                      ("-- remix -m 1,2v0.8", "remix -m 1,2v0.8", 1), ("remix scaling=always 1,2v0.8 1", "remix -a 1,2v0.8 1", 2)])
    func remixAgreesWithSox(ours words: String, sox soxWords: String, channels: Int) throws {
        let (ours, sox) = try Self.both(aupipe: words, sox: soxWords, channels: channels)
        try #require(ours.count == sox.count && ours.count == 8820 * channels, "\(ours.count) samples against sox's \(sox.count)")
        let worst = zip(ours, sox).map { abs($0 - $1) }.max()!
        // sox mixes in 32-bit integers: agreement to 2^-20 is far below the 16-bit input's step (2^-15).
        #expect(worst < 0x1p-20, "\(words): largest difference from sox \(worst)")
    }

    @Test("delay of whole frames with extend=1 is sox's delay", .needs("sox"))
    func delayAgreesWithSox() throws {
        let (ours, sox) = try Self.both(aupipe: "delay 100f,37f extend=1", sox: "delay 100s 37s", channels: 2)
        #expect(ours.count == sox.count && ours.count == (8820 + 100) * 2, "\(ours.count) samples against sox's \(sox.count)")
        #expect(ours == sox)
    }

    @Test("reverb is sox's reverb with the same parameters", .needs("sox"),
          arguments: [("remix 1 : reverb 50 wet-only=1", "remix 1 reverb -w 50 50 100 0", 1),
                      // (wet-gain=-3: the golden clip is loud, and sox clips what passes full scale; aupipe keeps floats.)
                      ("remix 1 : reverb 40 hf-damping=30 room-scale=80 pre-delay=20ms wet-gain=-3 stereo=1", "remix 1 reverb 40 30 80 100 20 -3", 2),
                      ("reverb 60 stereo-depth=70", "reverb 60 50 100 70", 2),
                      ("reverb 60 hf-damping=20 room-scale=50 stereo-depth=0 wet-only=1", "reverb -w 60 20 50 0", 2)])
    func reverbAgreesWithSox(ours words: String, sox soxWords: String, channels: Int) throws {
        let (ours, sox) = try Self.both(aupipe: words, sox: soxWords, channels: channels)
        try #require(ours.count == sox.count && ours.count == 8820 * channels, "\(ours.count) samples against sox's \(sox.count)")
        let worst = zip(ours, sox).map { abs($0 - $1) }.max()!
        #expect(worst < 1e-6, "\(words): largest difference from sox \(worst) (-120 dB is 1e-6)")
        #expect(sox.map(abs).max()! > 0.01, "the reverb is audible at all")
    }
}
