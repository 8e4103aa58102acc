import Foundation
import TestScratch
import Testing

/// `loudnorm` through the binary: ffmpeg's `ebur128=peak=true` reads its output within 1 LU of
/// the target with the true peak at or under the ceiling, at exact length; zero delay; the same
/// bytes at any block size; a live target change; `--stats` figures; refusals.
@Suite struct LoudnormTests {
    /// A music-like 45 s stereo stream made by ffmpeg: a kick drum every 0.5 s, noise hits,
    /// three tones, a 16 s swell (0.2...1 in amplitude) and a −20 dB break at 20–24 s; about
    /// −11 LUFS with a true peak near +2 dBTP, as f32 CAF.
    static let music: String = {
        func channel(_ f: Int, _ seed: Int) -> String {
            "(0.2*sin(2*PI*\(f)*t)+0.15*sin(2*PI*330*t+sin(2*PI*3*t))+0.1*sin(2*PI*\(2 * f)*t)*sin(2*PI*0.25*t)"
                + "+0.9*exp(-25*mod(t,0.5))*sin(2*PI*(60+200*exp(-30*mod(t,0.5)))*t)+0.5*exp(-60*mod(t+0.25,0.5))*(random(\(seed))-0.5)*2)"
                + "*(0.2+0.8*abs(sin(2*PI*t/16)))*if(between(t,20,24),0.1,1)"
        }
        let path = TestScratch.root.appendingPathComponent("aupipe-loudnorm-music-\(getpid()).caf").path
        _ = try? CLI.shell("ffmpeg -nostdin -v error -y -f lavfi -i \"aevalsrc=exprs='\(channel(220, 0))|\(channel(277, 1))':s=48000:d=45\" -c:a pcm_f32le -f caf '\(path)'")
        return path
    }()

    /// `music` at `lufs` LUFS (measured by aupipe's meter, set with gain), as a command writing CAF.
    static func musicAt(_ lufs: Double, in dir: URL) throws -> String {
        let figures = try MeterTests.meterFigures("cat '\(music)'")
        let i = try #require(figures["integratedLUFS"])
        let r = try CLI.shell("\"$AUPIPE\" -i '\(music)' gain \(lufs - i) -o in.caf", cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        return "cat in.caf"
    }

    @Test(.needs("ffmpeg"), arguments: [-30.0, -8.0], [(-16.0, -1.5), (-23.0, -1.0), (-16.0, -1.0), (-23.0, -1.5)])
    func bringsMusicToTheTargetUnderTheCeiling(input: Double, setting: (target: Double, truePeak: Double)) throws {
        let dir = try CLI.temporaryDirectory()
        let source = try Self.musicAt(input, in: dir)
        let r = try CLI.shell("\(source) | \"$AUPIPE\" --stats=json loudnorm target=\(setting.target) true-peak=\(setting.truePeak) -o out.caf 2> stats.json", cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let theirs = try MeterTests.ffmpegFigures("cat out.caf", cwd: dir)
        #expect(abs(theirs.i - setting.target) <= 1, "input \(input) LUFS, target \(setting.target): ffmpeg reads \(theirs.i) LUFS")
        #expect(theirs.tp <= setting.truePeak, "ceiling \(setting.truePeak) dBTP: ffmpeg reads a true peak of \(theirs.tp)")
        let frames = try CLI.shell("\"$AUPIPE\" info in.caf; \"$AUPIPE\" info out.caf", cwd: dir)
        let text = String(decoding: frames.stdout, as: UTF8.self)
        #expect(text.components(separatedBy: "frames: 2160000\n").count == 3, "frames out == frames in: \(text)")
    }

    /// An impulse after a second of tone lands on its own sample (scaled by the gain).
    @Test func zeroDelay() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            { "$AUPIPE" gen sine 440 level=-30 duration=2 --out-format f32le:48000:1 -t raw; \
              "$AUPIPE" gen silence duration=0.5 --out-format f32le:48000:1 -t raw; } > base.raw
            python3 -c "
            import struct, sys
            d = bytearray(open('base.raw','rb').read())
            k = 48000*2 + 12345
            d[4*k:4*k+4] = struct.pack('<f', 0.5)
            open('in.raw','wb').write(d)
            " || exit 3
            "$AUPIPE" --in-format f32le:48000:1 -t raw loudnorm < in.raw > out.raw
            """, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let out = try Data(contentsOf: dir.appendingPathComponent("out.raw"))
        let input = try Data(contentsOf: dir.appendingPathComponent("in.raw"))
        #expect(out.count == input.count)
        let samples = out.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let silence = samples[(48000 * 2)...]
        let loudest = silence.indices.max { abs(silence[$0]) < abs(silence[$1]) }
        #expect(loudest == 48000 * 2 + 12345, "the click is at \(String(describing: loudest))")
        #expect(silence.filter { $0 != 0 }.count == 1, "the silence around the click stays silent")
    }

    @Test(.needs("ffmpeg")) func sameBytesAtAnyBlockSize() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            ffmpeg -nostdin -v error -i '\(Self.music)' -t 8 -c:a pcm_f32le -f caf in.caf
            for b in 1f 7f 480f 4096f; do "$AUPIPE" -i in.caf --block $b loudnorm -20 true-peak=-3 -o out-$b.caf || exit 1; done
            cmp out-1f.caf out-7f.caf && cmp out-1f.caf out-480f.caf && cmp out-1f.caf out-4096f.caf
            "$AUPIPE" -i in.caf loudnorm -20 true-peak=-3 -o again.caf && cmp out-480f.caf again.caf
            """, cwd: dir)
        #expect(r.status == 0, "\(r.stderr) \(String(decoding: r.stdout, as: UTF8.self))")
    }

    @Test func statsShowInputAndOutputLoudness() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine 997 level=-30 duration=10 --out-format f32le:48000:2 | "$AUPIPE" --stats loudnorm -o /dev/null 2> text.txt
            "$AUPIPE" gen sine 997 level=-30 duration=10 --out-format f32le:48000:2 | "$AUPIPE" --stats=json loudnorm -o /dev/null 2> stats.json
            """, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("text.txt"), encoding: .utf8)
        #expect(text.contains("input: integrated -30.0 LUFS") && text.contains("output: integrated") && text.contains("true peak"), "\(text)")
        let json = try String(contentsOf: dir.appendingPathComponent("stats.json"), encoding: .utf8)
        let object = try JSONSerialization.jsonObject(with: Data((json.split(separator: "\n").last ?? "").utf8)) as? [String: Any]
        let f = try #require((object?["units"] as? [[String: Any]])?.first?["figures"] as? [String: Double], "\(json)")
        #expect(abs((f["inputIntegratedLUFS"] ?? 0) - -30) < 0.1 && abs((f["inputTruePeakDBTP"] ?? 0) - -30) < 0.1, "\(f)")
        #expect(abs((f["outputIntegratedLUFS"] ?? 0) - -16) < 1 && (f["outputTruePeakDBTP"] ?? 0) <= -1.5, "\(f)")
        for key in ["inputLoudnessRangeLU", "outputLoudnessRangeLU", "gainDB", "limiterMaxReductionDB"] { #expect(f[key] != nil, "no \(key): \(f)") }
    }

    @Test(arguments: ["loudnorm target=-80", "loudnorm -4", "loudnorm true-peak=1", "loudnorm true-peak=-10",
                      "loudnorm range=0", "loudnorm range=51", "loudnorm target=loud", "loudnorm lra=7"])
    func refusals(arguments: String) throws {
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 | \"$AUPIPE\" \(arguments) > /dev/null")
        #expect(r.status == 64 && r.stderr.split(separator: "\n").count == 1 && r.stderr.hasPrefix("aupipe: loudnorm"), "\(arguments): \(r.status) \(r.stderr)")
    }
}
