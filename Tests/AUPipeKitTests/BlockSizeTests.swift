import Testing
import AUPipeKit

/// Every unit's output is independent of the block size it is fed and of how reads split the stream.
@Suite struct BlockSizeTests {
    static let chains: [[[String]]] = [
        [["convert", "map=1,0"]],
        [["convert", "channels=1"]],
        [["convert", "format=s16le"], ["gain", "9"]],
        [["convert", "format=mulaw"]],
        [["gain", "-6"]],
        [["mute", "at=0.05-0.1,1234f-1300f", "ramp=3ms"]],
        [["mute"]],
        [["resample", "48000"]],
        [["resample", "16000", "quality=10"]],
        [["resample", "8000", "quality=0"], ["gain", "3"], ["resample", "44100"]],
    ]

    @Test(arguments: chains)
    func outputDoesNotDependOnBlockSize(chain: [[String]]) throws {
        let format = StreamFormat(encoding: .f32le, sampleRate: 44100, channels: 2)
        let input = TestSignals.wav(TestSignals.tones(frames: 9001, rate: 44100, channels: 2), format)
        let reference = try TestSignals.run(chain, input, block: 4096)
        #expect(reference.report.framesIn == 9001)
        for block in [1, 7, 480] {
            let other = try TestSignals.run(chain, input, block: block)
            #expect(other.bytes == reference.bytes, "block \(block) differs from block 4096 for \(chain)")
        }
        let chunked = try TestSignals.run(chain, input, block: 480, chunk: 5)
        #expect(chunked.bytes == reference.bytes, "reads of 5 bytes change the output of \(chain)")
    }

    @Test func unitsOtherThanResampleKeepTheFrameCount() throws {
        let format = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2)
        let input = TestSignals.wav(TestSignals.tones(frames: 4801, rate: 48000, channels: 2), format)
        for chain in Self.chains where !chain.joined().contains("resample") {
            let r = try TestSignals.run(chain, input)
            #expect(r.report.framesOut == 4801, "\(chain)")
        }
    }
}
