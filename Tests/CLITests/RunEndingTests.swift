import Foundation
import Testing

/// How a run ends and what it says about it (issue 24): a reader that closes early still gets
/// the figures and plots (item 3), `--stats=json` carries the status and error (item 15),
/// `demo` writes to a redirected stdout (item 16), `plot=` names end in `.svg` (item 17).
@Suite struct RunEndingTests {
    /// Item 3: `| head -c 1000` ends the run as SIGINT would: status 0, the figures on stderr,
    /// the plot written.
    @Test func aReaderThatClosesEarlyStillGetsFiguresAndPlots() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine duration=3s -o in.wav
            "$AUPIPE" -i in.wav --stats=json meter plot=m.svg 2> stats.json | head -c 1000 > /dev/null
            "$AUPIPE" -i in.wav --stats gain -3 2> stats.txt | head -c 1000 > /dev/null
            head -c 5 m.svg; echo; cat stats.txt
            """, cwd: d)
        #expect(r.status == 0, "\(r.stderr)")
        let out = String(decoding: r.stdout, as: UTF8.self)
        #expect(out.hasPrefix("<?xml"), "no plot: \(out)")
        #expect(out.contains("aupipe: stats: 1 gain: in "), "\(out)")
        #expect(out.contains("closed by its reader before the end"), "\(out)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: d.appendingPathComponent("stats.json"))) as? [String: Any])
        let output = try #require(json["output"] as? [String: Any])
        #expect(output["closedByReader"] as? Bool == true)
        #expect(json["status"] as? Int == 0)
        let units = try #require(json["units"] as? [[String: Any]])
        #expect((units.first?["figures"] as? [String: Any])?["integratedLUFS"] != nil, "\(units)")
    }

    /// Item 15: a failed run's figures carry its status and error; a good run's `error` is null.
    @Test func statsJSONCarriesStatusAndError() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine duration=1s -o good.wav && head -c 1044 good.wav > bad.wav
            for f in good bad; do "$AUPIPE" -i $f.wav gain -3 -o out-$f.wav --stats=json 2> $f.log; done
            grep -h '^{' good.log bad.log | jq -c '[.status, .error]'
            """, cwd: d)
        try #require(CLI.has("jq"))
        let lines = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2, "\(r.stderr)")
        #expect(lines.first == "[0,null]")
        #expect(lines.last?.hasPrefix("[65,\"bad.wav: the stream ended 95000 bytes short") == true, "\(lines)")
    }

    /// Item 16: `aupipe demo > x.wav` writes the WAV to stdout and no demo.wav.
    @Test func demoWritesToARedirectedStdout() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" demo > x.wav && \"$AUPIPE\" info x.wav && ls", cwd: d)
        #expect(r.status == 0, "\(r.stderr)")
        let out = String(decoding: r.stdout, as: UTF8.self)
        #expect(out.contains("frames: 144000"), "\(out)")
        #expect(!out.contains("demo.wav"), "\(out)")
        #expect(r.stderr.contains("aupipe: demo: wrote stdout (wav s16le:48000:2, 144000 frames)"), "\(r.stderr)")
        let file = try CLI.shell("\"$AUPIPE\" demo -o demo.wav && ls", cwd: d)
        #expect(String(decoding: file.stdout, as: UTF8.self).contains("demo.wav"))
    }

    /// Item 17: every `plot=` takes a `.svg` name and refuses another, before the stream.
    @Test(arguments: ["meter plot=levels.png", "aec ref=far.wav plot=aec.png", "meter plot=plot"])
    func plotNamesMustEndInSVG(_ chain: String) throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" gen silence duration=10f --out-format s16le:16000:1 -o far.wav; \"$AUPIPE\" -i far.wav \(chain) -o out.wav", cwd: d)
        let unit = chain.split(separator: " ")[0]
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("aupipe: \(unit): plot="), "\(r.stderr)")
        #expect(r.stderr.contains("plots are written as SVG; name the file .svg (plot="), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        let ls = try CLI.shell("ls", cwd: d)
        #expect(String(decoding: ls.stdout, as: UTF8.self) == "far.wav\n")
    }
}

/// `--check` checks the paths the run would open, and a chain without input to read (issue 24,
/// item 27).
@Suite struct CheckPathsTests {
    @Test func checkRefusesAnOutputInAMissingDirectory() throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=10f -o in.wav && \"$AUPIPE\" --check -i in.wav gain -3 -o nodir/out.wav", cwd: d)
        #expect(r.status == 73)
        #expect(r.stderr == "aupipe: cannot create output nodir/out.wav: No such file or directory\n")
    }

    @Test(arguments: [("tee nodir/copy.wav", 73, "nodir/copy.wav"),
                      ("meter plot=nodir/m.svg", 73, "nodir/m.svg"),
                      ("mix input=missing.wav", 66, "missing.wav")])
    func checkRefusesMissingSidePaths(_ chain: String, _ status: Int32, _ text: String) throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=10f -o in.wav && \"$AUPIPE\" --check -i in.wav \(chain)", cwd: d)
        #expect(r.status == status, "\(r.stderr)")
        #expect(r.stderr.contains(text) && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test func checkWithoutInputIsOkForAChainThatDoesNotNeedTheFormat() throws {
        let r = try CLI.shell("\"$AUPIPE\" --check resample 16000 : gain -3 < /dev/null")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self).hasPrefix("ok: the chain is valid (no input read: stdin is /dev/null; checked for s16le:48000:2"))
        let piped = try CLI.shell("true | \"$AUPIPE\" --check gain -3")
        #expect(piped.status == 0 && String(decoding: piped.stdout, as: UTF8.self).contains("no input read: stdin is empty"), "\(piped.stderr)")
        let given = try CLI.shell("\"$AUPIPE\" --check --in-format s16le:8000:1 resample 16000 < /dev/null")
        #expect(String(decoding: given.stdout, as: UTF8.self) == "ok: raw s16le:8000:1 -> raw s16le:16000:1 (no input read: stdin is /dev/null; checked for --in-format)\n")
    }

    @Test func checkSaysWhatAChainThatNeedsTheFormatNeeds() throws {
        // A map of four channels fits neither stereo nor mono: the stream's format decides.
        let r = try CLI.shell("\"$AUPIPE\" --check convert map=0,1,2,3 < /dev/null")
        #expect(r.status == 66)
        #expect(r.stderr.hasPrefix("aupipe: --check: the chain needs the input's format (stdin is /dev/null)"), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("; give -i FILE, pipe the input, or --in-format SPEC\n") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}
