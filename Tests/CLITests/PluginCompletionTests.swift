import Foundation
import Testing

/// The completion scripts offer the plugins installed when completing, not when the script was
/// written: after `lv2`/`ladspa` the plugins, after a plugin its ports (`port=`), after
/// `aupipe help lv2`/`help ladspa` the plugins; the scripts ask the aupipe being completed
/// (`aupipe completions --list UNIT [PLUGIN]`).
@Suite struct PluginCompletionTests {
    /// Each script is written with no plugin installed, and used with LV2's Debian plugins
    /// and the LADSPA test plugins; the aupipe on PATH answers.
    static func environment() throws -> [String: String] {
        let ladspa = try #require(LADSPATests.quiet, "could not compile Support/ladspa_test_plugins.c")
        return ["LV2_PATH": "/usr/lib/lv2", "LADSPA_PATH": ladspa]
    }

    static let generate = "LV2_PATH=/nonexistent LADSPA_PATH=/nonexistent \"$AUPIPE\" completions"
    static let path = "export PATH=\"$(dirname \"$AUPIPE\"):$PATH\""

    /// What each line completes to, one line of candidates (space-separated) per line.
    static let lines: [(words: [String], expected: String)] = [
        (["aupipe", "lv2", "eg-a"], "eg-amp"),
        (["aupipe", "lv2", "eg-amp", ""], "gain= name="),
        (["aupipe", "gain", "-3", ":", "lv2", "http://lv2plug.in/plugins/eg-amp", "g"], "gain="),
        (["aupipe", "lv2", "dpl#mono", "thr"], "threshold="),
        (["aupipe", "help", "lv2", "dpl"], "dpl#mono dpl#stereo"),
        (["aupipe", "ladspa", "hinted", "st"], "steps="),
        (["aupipe", "help", "ladspa", "hin"], "hinted"),
    ]

    @Test(.needsFile("/usr/lib/lv2/eg-amp.lv2", "/usr/lib/lv2/dpl.lv2")) func bashOffersThePluginsAndPortsInstalledNow() throws {
        let calls = Self.lines.map { l in
            "COMP_WORDS=(\(l.words.map(CLI.quote).joined(separator: " "))); COMP_CWORD=\(l.words.count - 1); _aupipe; echo \"${COMPREPLY[*]}\""
        }
        let r = try CLI.shell("""
            source <(\(Self.generate) bash) || exit 1
            \(Self.path); unset COMP_LINE
            \(calls.joined(separator: "\n"))
            """, environment: try Self.environment())
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self) == Self.lines.map { $0.expected + "\n" }.joined())
    }

    @Test(.needs("zsh"), .needsFile("/usr/lib/lv2/eg-amp.lv2", "/usr/lib/lv2/dpl.lv2")) func zshOffersThePluginsAndPortsInstalledNow() throws {
        let dir = try CLI.temporaryDirectory()
        // zsh runs bash's candidate logic (with ksharrays): its words and index, as _aupipe sets them.
        let calls = Self.lines.map { l in
            "_aw=(\(l.words.map(CLI.quote).joined(separator: " "))); _acw=\(l.words.count - 1); _acur=${_aw[_acw]}; _aupipe_candidates; print -r -- \"${COMPREPLY[*]}\""
        }
        let script = """
            autoload -U compinit && compinit -u -d \(CLI.quote(dir.appendingPathComponent("zcompdump").path))
            source <(\(Self.generate) zsh) || exit 1
            \(Self.path)
            setopt ksharrays
            local -a _aw COMPREPLY; local _acw _acur _aupipe_want_files=0 _aupipe_file_prefix=''
            \(calls.joined(separator: "\n"))
            """
        let r = try CLI.shell("zsh -f -c \(CLI.quote(script))", environment: try Self.environment())
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self) == Self.lines.map { $0.expected + "\n" }.joined())
    }

    @Test(.needs("fish"), .needsFile("/usr/lib/lv2/eg-amp.lv2", "/usr/lib/lv2/dpl.lv2")) func fishOffersThePluginsAndPortsInstalledNow() throws {
        let dir = try CLI.temporaryDirectory()
        let script = dir.appendingPathComponent("aupipe.fish").path
        let made = try CLI.shell("\(Self.generate) fish > \(CLI.quote(script))")
        try #require(made.status == 0, "\(made.stderr)")
        for line in Self.lines {
            let typed = line.words.map { $0.isEmpty ? "" : $0 }.joined(separator: " ")
            let f = try CLI.shell("\(Self.path); fish -c \(CLI.quote("source \(CLI.quote(script)); complete -C \(CLI.quote(typed))"))",
                                  environment: try Self.environment())
            let words = String(decoding: f.stdout, as: UTF8.self).split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
            #expect(words.joined(separator: " ") == line.expected, "\(typed): \(f.stderr)")
        }
    }

    @Test func theListIsAUsageErrorForAUnitThatIsNoPluginHost() throws {
        let r = try CLI.aupipe(["completions", "--list", "gain"])
        #expect(r.status == 64 && r.stdout.isEmpty)
        #expect(r.stderr == "aupipe: completions: --list takes a plugin unit (ladspa, lv2), not 'gain'\n")
    }
}
