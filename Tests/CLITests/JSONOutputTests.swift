import Foundation
import Testing

/// `--stats=json` and `compare --json` are valid JSON whatever a path holds, and `--stats`
/// prints peaks to 0.01 dB.
@Suite struct JSONOutputTests {
    /// A file name with a tab, a newline, a control character (U+0001), a quote and a backslash.
    static let awkwardName = "a\tb\nc\u{01}d\"e\\f.wav"

    /// A directory holding a short sine under `awkwardName`.
    static func directory() throws -> URL {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 --out-format s16le:16000:1 -o \(CLI.quote(awkwardName))", cwd: d)
        try #require(r.status == 0, "\(r.stderr)")
        return d
    }

    /// Parses `text` strictly, with Foundation and with python3's json module where installed.
    static func parse(_ text: Data, _ what: String, in dir: URL) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: text) as? [String: Any], "\(what) is not a JSON object: \(String(decoding: text, as: UTF8.self))")
        if (try? CLI.shell("command -v python3").status) == 0 {
            try text.write(to: dir.appendingPathComponent("out.json"))
            let py = try CLI.shell("python3 -m json.tool out.json > /dev/null", cwd: dir)
            #expect(py.status == 0, "python3 -m json.tool rejects \(what): \(py.stderr)")
        }
        return object
    }

    @Test func compareJSONEscapesControlCharactersInPaths() throws {
        let d = try Self.directory()
        let name = CLI.quote(Self.awkwardName)
        let r = try CLI.shell("\"$AUPIPE\" compare \(name) \(name) --json", cwd: d)
        #expect(r.status == 0, "\(r.stderr)")
        let object = try Self.parse(r.stdout, "compare --json", in: d)
        #expect((object["a"] as? [String: Any])?["path"] as? String == Self.awkwardName)
        #expect(!r.stdout.contains(UInt8(ascii: "\t")) && !r.stdout.contains(0x01), "raw control characters in the output")
    }

    @Test func statsJSONEscapesControlCharactersInNotes() throws {
        let d = try Self.directory()
        // mix's note names its bus by path.
        let r = try CLI.shell("\"$AUPIPE\" -i \(CLI.quote(Self.awkwardName)) --stats=json -o /dev/null mix \(CLI.quote("input=" + Self.awkwardName))", cwd: d)
        #expect(r.status == 0, "\(r.stderr)")
        let object = try Self.parse(Data(r.stderr.utf8), "--stats=json", in: d)
        let note = try #require((object["units"] as? [[String: Any]])?.first?["note"] as? String)
        #expect(note.contains(Self.awkwardName), "\(note)")
    }

    /// Peaks in the text of `--stats` always have two decimals; in JSON they stay numbers.
    @Test func statsPeaksHaveTwoDecimals() throws {
        let r = try CLI.shell("\"$AUPIPE\" gen sine level=-9 duration=0.1 | \"$AUPIPE\" --stats gain -3 -o /dev/null")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("peak -12.00 dBFS"), "\(r.stderr)")
        let j = try CLI.shell("\"$AUPIPE\" gen sine level=-9 duration=0.1 | \"$AUPIPE\" --stats=json gain -3 -o /dev/null")
        let units = try #require((try JSONSerialization.jsonObject(with: Data(j.stderr.utf8)) as? [String: Any])?["units"] as? [[String: Any]])
        #expect(units.first?["peakDBFS"] as? Double == -12, "\(j.stderr)")
    }
}
