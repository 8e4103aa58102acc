import Testing
import AUPipeKit

@Suite struct CommandLineParserTests {
    @Test func chainsSplitOnLoneColonsAndKeepNegativeValues() throws {
        let i = try CommandLineParser.parse(["--in-format", "s16le:48000:1", "resample", "16000", ":", "gain", "-6", ":", "convert", "format=s16le:x"])
        guard case .run(let chain, let o) = i else { Issue.record("not a run"); return }
        #expect(chain == [["resample", "16000"], ["gain", "-6"], ["convert", "format=s16le:x"]])
        #expect(o.inFormat == "s16le:48000:1")
    }

    @Test func optionsMayFollowTheChain() throws {
        guard case .run(let chain, let o) = try CommandLineParser.parse(["gain", "-6", "-o", "out.wav", "--stats=json", "-t", "caf"]) else { return }
        #expect(chain == [["gain", "-6"]])
        #expect(o.output == "out.wav" && o.stats == "json" && o.container == "caf")
        guard case .run(let c2, let o2) = try CommandLineParser.parse(["--", "gain", "-o"]) else { return }
        #expect(c2 == [["gain", "-o"]] && o2.output == nil)
    }

    @Test func subcommands() throws {
        #expect(try CommandLineParser.parse(["units"]) == .units)
        #expect(try CommandLineParser.parse(["help", "gain"]) == .help(unit: "gain"))
        #expect(try CommandLineParser.parse(["--help"]) == .help(unit: nil))
        #expect(try CommandLineParser.parse(["gain", "-6", "--version"]) == .version)
        #expect(try CommandLineParser.parse(["info"]) == .info(path: "-", inFormat: nil))
        #expect(try CommandLineParser.parse(["info", "--in-format", "s16le:8000:1", "x.raw"]) == .info(path: "x.raw", inFormat: "s16le:8000:1"))
        #expect(try CommandLineParser.parse(["demo", "-o", "x.wav"]) == .demo(output: "x.wav"))
        #expect(try CommandLineParser.parse(["demo"]) == .demo(output: nil))
    }

    @Test func badCommandLinesAreUsageErrors() {
        for args in [["--stat"], ["gain", ":", ":", "mute"], [":", "gain"], ["gain", ":"], ["-o"], ["units", "x"], ["info", "a", "b"]] {
            #expect(throws: AUPipeError.self, "\(args)") { try CommandLineParser.parse(args) }
        }
        do { _ = try CommandLineParser.parse(["--stat"]) } catch let e as AUPipeError {
            #expect(e.message.contains("did you mean --stats"))
        } catch {}
    }

    @Test func optionValuesAreChecked() {
        var o = PipelineOptionsText()
        o.block = "0ms"
        #expect(throws: AUPipeError.self) { try o.parsed() }
        o.block = "480f"
        #expect((try? o.parsed())?.block == .frames(480))
        o.container = "mp3"
        #expect(throws: AUPipeError.self) { try o.parsed() }
        o.container = "wav"
        o.stats = "xml"
        #expect(throws: AUPipeError.self) { try o.parsed() }
        o.stats = nil
        o.outFormat = "::"
        #expect(throws: AUPipeError.self) { try o.parsed() }
    }

    @Test func mainReportsOneLineAndTheStatus() {
        let console = BufferConsole()
        #expect(AUPipeCommand.main(["gian", "-6"], console: console) == 64)
        let units = UnitRegistry.all.map(\.name).joined(separator: ", ")
        #expect(units.hasPrefix("aec, agc, ") && units.contains(", gain, ") && units.hasSuffix(", ladspa, lv2"))
        #expect(console.stderr == ["aupipe: unknown unit 'gian'; did you mean 'gain'? (units: \(units); see 'aupipe units')"])
        let c2 = BufferConsole()
        #expect(AUPipeCommand.main(["-i", "/nonexistent/x.wav"], console: c2) == 66)
        #expect(c2.stderr.count == 1 && c2.stderr[0].hasPrefix("aupipe: cannot open input /nonexistent/x.wav"))
    }
}
