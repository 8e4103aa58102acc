import Foundation
import Testing

/// The README's "Batch runs" recipe: GNU parallel runs aupipe over a directory of files with two
/// jobs. Every output must be byte-identical to a serial run; a corrupt file fails alone, with
/// 65 in the job log's Exitval column, and `--resume-failed` runs only it again; the
/// `--stats=json` lines, one per run, aggregate with `jq -s`.
@Suite struct BatchRunTests {
    /// The recipe as the README gives it (with --will-cite, which only silences parallel's notice).
    static let recipe = """
        find in -name '*.wav' | sort | parallel --will-cite -j2 --joblog batch.log --resume-failed \\
          'aupipe -i {} resample 16000 : gain -3 -o out/{/} --stats=json 2> logs/{/.}.log'
        """

    /// The joblog's rows after its header: file name (of `-i`) and Exitval.
    static func exitValues(_ joblog: String) -> [(file: String, status: Int)] {
        joblog.split(separator: "\n").dropFirst().compactMap { row in
            let columns = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count >= 9, let status = Int(columns[6]),
                  let file = columns[8].split(separator: " ").dropFirst(2).first else { return nil }
            return (String(file.split(separator: "/").last!), status)
        }
    }

    @Test(.needs("parallel", "jq")) func gnuParallelRecipeMatchesASerialRunAndIsolatesACorruptFile() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let setup = try CLI.shell("""
            PATH="$(dirname "$AUPIPE"):$PATH"
            mkdir in out serial logs
            for f in 440 550 660 770; do aupipe gen sine $f duration=0.3 --out-format s16le:48000:2 -o in/tone$f.wav; done
            aupipe gen noise pink seed=3 duration=0.2 -o in/noise.wav
            printf 'this is not audio at all' > in/corrupt.wav
            for f in in/*.wav; do aupipe -i "$f" resample 16000 : gain -3 -o "serial/${f##*/}" 2>/dev/null; done
            \(Self.recipe)
            echo "parallel status $?"
            """, cwd: dir)
        #expect(setup.stdout == Data("parallel status 1\n".utf8), "\(String(decoding: setup.stdout, as: UTF8.self)) \(setup.stderr)")

        let joblog = try String(contentsOf: dir.appendingPathComponent("batch.log"), encoding: .utf8)
        let rows = Self.exitValues(joblog)
        #expect(rows.count == 6, "joblog: \(joblog)")
        for row in rows {
            #expect(row.status == (row.file == "corrupt.wav" ? 65 : 0), "joblog: \(row.file) exited \(row.status)")
        }
        let names = ["tone440.wav", "tone550.wav", "tone660.wav", "tone770.wav", "noise.wav"]
        for name in names {
            let out = try Data(contentsOf: dir.appendingPathComponent("out/\(name)"))
            let serial = try Data(contentsOf: dir.appendingPathComponent("serial/\(name)"))
            #expect(out == serial, "out/\(name) differs from the serial run's")
        }
        let log = try String(contentsOf: dir.appendingPathComponent("logs/corrupt.log"), encoding: .utf8)
        #expect(log.split(separator: "\n").count == 1 && log.hasPrefix("aupipe: "), "the corrupt file's log: \(log)")

        // One JSON object per line and run; jq -s aggregates them across the batch.
        let stats = try CLI.shell("""
            grep -h '^{' logs/*.log | wc -l
            grep -h '^{' logs/*.log | jq -s -c '[length, (map(.output.frames) | add), (map(.input.path) | sort), (map(.output.path) | sort)]'
            """, cwd: dir)
        #expect(stats.status == 0, "\(stats.stderr)")
        let lines = String(decoding: stats.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.first == "5", "stats lines: \(lines)")
        let inputs = names.sorted().map { "\"in/\($0)\"" }.joined(separator: ",")
        let outputs = names.sorted().map { "\"out/\($0)\"" }.joined(separator: ",")
        #expect(lines.last == "[5,\(4 * 4800 + 3200),[\(inputs)],[\(outputs)]]", "jq -s: \(lines)")

        // --resume-failed runs only the failed job again: once the file is repaired it passes.
        let resume = try CLI.shell("""
            PATH="$(dirname "$AUPIPE"):$PATH"
            aupipe gen silence duration=0.1 -o in/corrupt.wav
            \(Self.recipe)
            echo "parallel status $?"
            """, cwd: dir)
        #expect(resume.stdout == Data("parallel status 0\n".utf8), "\(String(decoding: resume.stdout, as: UTF8.self)) \(resume.stderr)")
        let rerun = Self.exitValues(try String(contentsOf: dir.appendingPathComponent("batch.log"), encoding: .utf8)).dropFirst(6)
        #expect(rerun.map(\.file) == ["corrupt.wav"] && rerun.map(\.status) == [0], "rerun: \(Array(rerun))")
    }
}
