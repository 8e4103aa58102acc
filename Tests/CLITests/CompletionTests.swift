import AUPipeKit
import Foundation
import Testing

/// `aupipe completions bash|zsh|fish`: the bash script is loaded in a bash subshell and asked
/// for the candidates of partial command lines, as bash would (COMP_WORDS, COMP_CWORD, and for
/// the real split at '=' also COMP_LINE); zsh's and fish's scripts must parse, and fish's
/// `complete -C` must give the same candidates.
@Suite struct CompletionTests {
    /// The candidates (COMPREPLY) of bash's completion function for `words`, the last one being
    /// completed; `line` is COMP_LINE when given.
    static func bash(_ words: [String], line: String? = nil) throws -> [String] {
        let array = words.map(CLI.quote).joined(separator: " ")
        let lineSetup = line.map { "COMP_LINE=\(CLI.quote($0)); COMP_POINT=${#COMP_LINE}" } ?? "unset COMP_LINE"
        let r = try CLI.shell("""
            source <("$AUPIPE" completions bash) || exit 1
            COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); \(lineSetup)
            _aupipe; printf '%s\\n' "${COMPREPLY[@]}"
            """)
        #expect(r.status == 0, "bash completion failed: \(r.stderr)")
        #expect(r.stderr.isEmpty, "bash completion wrote on stderr: \(r.stderr)")
        return String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsUnitsParametersAndChoices() throws {
        #expect(try Self.bash(["aupipe", "res"]) == ["resample"])
        #expect(try Self.bash(["aupipe", "gain", "-3", ":", "mi"]) == ["mix"])
        #expect(try Self.bash(["aupipe", "resample", "16000", "eng"]) == ["engine="])
        #expect(try Self.bash(["aupipe", "resample", "16000", "engine="]) == ["engine=soxr", "engine=speex"])
        #expect(try Self.bash(["aupipe", "comp"]).sorted() == ["compare", "completions", "compressor"])
        #expect(try Self.bash(["aupipe", "completions", ""]) == ["bash", "zsh", "fish"])
        #expect(try Self.bash(["aupipe", "help", "res"]) == ["resample"])
    }

    @Test func bashCompletesWhatReadlineReplacesAfterAnEqualsSign() throws {
        // bash splits 'engine=' at '=' (COMP_WORDBREAKS); readline replaces what follows it.
        let line = "aupipe resample 16000 engine="
        #expect(try Self.bash(["aupipe", "resample", "16000", "engine", "="], line: line) == ["soxr", "speex"])
        #expect(try Self.bash(["aupipe", "--stats="], line: "aupipe --stats=") == ["json"])
    }

    @Test func bashCompletesFormatTokensSignalsAndBooleans() throws {
        let s16 = try Self.bash(["aupipe", "--out-format", "s16"])
        #expect(!s16.isEmpty && s16.allSatisfy { $0.hasPrefix("s16") }, "\(s16)")
        #expect(try Self.bash(["aupipe", "convert", "format=f32"]) == ["format=f32le", "format=f32be"])
        #expect(try Self.bash(["aupipe", "gen", "s"]).sorted() == ["silence", "sine", "sweep"])
        #expect(try Self.bash(["aupipe", "gen", "noise", "color="]) == ["color=white", "color=pink"])
        #expect(try Self.bash(["aupipe", "-t", ""]) == ["caf", "wav", "au", "raw"])
        let boolean = try #require(UnitRegistry.all.lazy.flatMap { d in d.parameters.map { (d.name, $0) } }
            .first { if case .boolean = $0.1.kind { return true } else { return false } })
        #expect(try Self.bash(["aupipe", boolean.0, "\(boolean.1.name)="]) == ["\(boolean.1.name)=0", "\(boolean.1.name)=1"])
    }

    @Test func bashCompletesFilesForFileArguments() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        FileManager.default.createFile(atPath: dir.appendingPathComponent("take1.wav").path, contents: Data())
        let prefix = dir.appendingPathComponent("take").path
        #expect(try Self.bash(["aupipe", "-i", prefix]) == [prefix + "1.wav"])
        #expect(try Self.bash(["aupipe", "info", prefix]) == [prefix + "1.wav"])
        #expect(try Self.bash(["aupipe", "mix", "input=" + prefix]) == ["input=" + prefix + "1.wav"])
    }

    @Test func everyUnitOfTheRegistryIsCompleted() {
        // The list comes from the registry's providers: a plugin provider's units appear too.
        #expect(CompletionModel(registry: .standard).units.map(\.name) == UnitRegistry.standard.all.map(\.name))
    }

    @Test(.needs("zsh")) func zshScriptParses() throws {
        let r = try CLI.shell("\"$AUPIPE\" completions zsh > \"$TMPDIR_/_aupipe\" && zsh -n \"$TMPDIR_/_aupipe\"",
                              environment: ["TMPDIR_": try CLI.temporaryDirectory().path])
        #expect(r.status == 0, "zsh -n: \(r.stderr)")
    }

    @Test(.needs("fish")) func fishScriptParsesAndCompletes() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("aupipe.fish").path
        let r = try CLI.shell("\"$AUPIPE\" completions fish > \(CLI.quote(script)) && fish --no-execute \(CLI.quote(script))")
        #expect(r.status == 0, "fish --no-execute: \(r.stderr)")
        func fish(_ line: String) throws -> [String] {
            let c = try CLI.shell("fish -c \(CLI.quote("source \(CLI.quote(script)); complete -C \(CLI.quote(line))"))")
            #expect(c.stderr.isEmpty, "fish: \(c.stderr)")
            return String(decoding: c.stdout, as: UTF8.self).split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        #expect(try fish("aupipe res") == ["resample"])
        #expect(try fish("aupipe gain -3 : mi") == ["mix"])
        #expect(try fish("aupipe resample 16000 engine=").sorted() == ["engine=", "engine=soxr", "engine=speex"])
        #expect(try fish("aupipe gen s").sorted() == ["silence", "sine", "sweep"])
    }

    @Test func anUnknownShellIsAUsageErrorNamingTheShells() throws {
        let r = try CLI.aupipe(["completions", "tcsh"])
        #expect(r.status == 64)
        #expect(r.stderr == "aupipe: completions: unknown shell 'tcsh'; use bash, zsh or fish\n")
        #expect(try CLI.aupipe(["completions"]).status == 64)
    }
}
