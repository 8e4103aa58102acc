import Foundation
import Testing

/// `silence` through the binary on alsa-utils' recorded speech with silences inserted: the
/// events on stderr and `--stats=json` give the same cuts, the output is the input less those
/// cuts byte for byte (s16 in and out: nothing dithered), no speech frame is cut and the long
/// pause comes out as keep= within 10 ms.
@Suite struct SilenceCLITests {
    static let speechFile = "/usr/share/sounds/alsa/Front_Center.wav"
    static let rate = 48000

    /// The recording's samples (48 kHz mono s16 WAV: the data chunk after a 44-byte header).
    static func speech() throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: speechFile))
        let range = try #require(data.range(of: Data("data".utf8)))
        let samples = data[(range.upperBound + 4)...]
        return stride(from: samples.startIndex, to: samples.endIndex - 1, by: 2).map { Int16(bitPattern: UInt16(samples[$0]) | UInt16(samples[$0 + 1]) << 8) }
    }

    /// Labels from the clean signal's energy: a 10 ms frame whose RMS is above −60 dBFS is
    /// speech, and so are the 20 ms after it.
    static func labels(_ x: [Int16]) -> [Bool] {
        let window = rate / 100, hangover = rate / 50, floor = 0.001 * 32768
        var speech = [Bool](repeating: false, count: x.count), last = -Int.max / 2, start = 0
        while start < x.count {
            let end = min(x.count, start + window)
            let rms = (x[start..<end].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(end - start)).squareRoot()
            if rms > floor { last = end }
            for n in start..<end where rms > floor || n < last + hangover { speech[n] = true }
            start = end
        }
        return speech
    }

    @Test(.needsFile(speechFile))
    func recordedSpeechKeepsEveryWordAndTheCutsAgree() throws {
        let words = try Self.speech()
        let zeros = { (seconds: Double) in [Int16](repeating: 0, count: Int(seconds * Double(Self.rate))) }
        let input = zeros(2) + words + zeros(1.5) + words + zeros(2)
        let bytes = input.withUnsafeBytes { Data($0) }
        let r = try CLI.shell("\"$AUPIPE\" --in-format s16le:48000:1 -t raw --stats=json silence -55dB pause=1 keep=250ms events=-", stdin: bytes)
        try #require(r.status == 0, "\(r.stderr)")
        let output: [Int16] = r.stdout.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }

        // The events (stderr, one line per cut) and --stats=json (the last line) agree.
        let lines = r.stderr.split(separator: "\n")
        var outputs: [Int] = []
        let events = try lines.filter { $0.hasPrefix("{\"cut\"") }.map { line -> (Int, Int) in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let cut = try #require(object["cut"] as? [String: Int])
            let start = try #require(cut["start"]), end = try #require(cut["end"])
            outputs.append(try #require(object["output"] as? Int))
            return (start, end)
        }
        let last = try #require(lines.last)
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let figures = try #require((stats["units"] as? [[String: Any]])?.first?["figures"] as? [String: Any])
        #expect((figures["cutStarts"] as? [Int]) == events.map(\.0) && (figures["cutEnds"] as? [Int]) == events.map(\.1), "\(figures) against \(events)")
        #expect(events.count == 3, "leading, the inserted pause, trailing: \(events)")

        // The output is the input less the cuts, and no cut takes a speech frame.
        let speech = Self.labels(input)
        var rebuilt: [Int16] = [], from = 0
        for (start, end) in events {
            #expect(!(start..<end).contains { speech[$0] }, "cut \(start)-\(end) takes speech")
            rebuilt += input[from..<start]
            from = end
        }
        rebuilt += input[from...]
        #expect(output == rebuilt)

        // The inserted 1.5 s (with the recording's own quiet ends) is now keep=250ms within 10 ms:
        // the quiet run by the labels around where the middle cut falls in the output. (-55dB:
        // the recording's breath and room tails are about as loud in sample peak as the labels'
        // -60 dBFS in 10 ms RMS; at -45dB the unit calls 50 ms of them quiet that the labels call
        // speech, and the pause by the labels is 200 ms, with nothing labelled speech cut.)
        let middle = try #require(outputs.count == 3 ? outputs[1] : nil)
        let outSpeech = Self.labels(output)
        var first = middle, end = middle
        while first > 0 && !outSpeech[first - 1] { first -= 1 }
        while end < output.count && !outSpeech[end] { end += 1 }
        #expect(abs(end - first - Self.rate / 4) <= Self.rate / 100, "the shortened pause is \(end - first) frames; keep= is \(Self.rate / 4)")
    }
}
