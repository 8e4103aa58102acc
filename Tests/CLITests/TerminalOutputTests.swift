import Foundation
import Testing

/// Binary audio is not written to a terminal unless `-o -` asks for it (as gzip refuses to).
@Suite struct TerminalOutputTests {
    /// Runs its arguments with stdin from the file named first and stdout on a pseudo-terminal
    /// (raw mode, so bytes arrive unchanged); prints the status and the bytes the terminal got,
    /// and passes stderr on.
    static let onTerminal = """
        import os, pty, subprocess, sys, tty
        master, slave = pty.openpty()
        tty.setraw(slave)
        with open(sys.argv[1], 'rb') as stdin:
            p = subprocess.Popen(sys.argv[2:], stdin=stdin, stdout=slave, stderr=subprocess.PIPE)
        os.close(slave)
        got = 0
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            got += len(data)
        err = p.stderr.read()
        print(p.wait(), got)
        sys.stderr.buffer.write(err)
        """

    /// aupipe `arguments` with stdout on a terminal: its status, the bytes written there, stderr.
    static func run(_ arguments: String, stdin: String = "/dev/null", cwd: URL) throws -> (status: Int, bytes: Int, stderr: String) {
        let r = try CLI.shell("python3 -c \"$PTY_RUN\" \(stdin) \"$AUPIPE\" \(arguments)", cwd: cwd, environment: ["PTY_RUN": onTerminal])
        let words = String(decoding: r.stdout, as: UTF8.self).split(separator: " ").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
        try #require(r.status == 0 && words.count == 2, "the pty runner failed: \(r.stderr)")
        return (words[0], words[1], r.stderr)
    }

    static let message = "aupipe: refusing to write binary audio to a terminal; redirect it (> out.wav), pipe it, or use -o - to force\n"

    @Test(.needs("python3")) func aChainRefusesATerminalAndMinusOForcesIt() throws {
        let dir = try CLI.temporaryDirectory()
        try #require(try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 -o in.wav", cwd: dir).status == 0)
        let refused = try Self.run("gain -3", stdin: "in.wav", cwd: dir)
        #expect(refused.status == 64 && refused.bytes == 0 && refused.stderr == Self.message, "\(refused)")
        let forced = try Self.run("gain -3 -o -", stdin: "in.wav", cwd: dir)
        #expect(forced.status == 0 && forced.bytes == 44 + 4800 * 2 && forced.stderr.isEmpty, "\(forced)")
        let file = try Self.run("gain -3 -o out.wav", stdin: "in.wav", cwd: dir)
        #expect(file.status == 0 && file.bytes == 0, "\(file)")
        // --check writes text, not audio.
        let check = try Self.run("--check gain -3", stdin: "in.wav", cwd: dir)
        #expect(check.status == 0 && check.bytes > 0 && check.stderr.isEmpty, "\(check)")
    }

    @Test(.needs("python3")) func genRefusesATerminalAndMinusOForcesIt() throws {
        let dir = try CLI.temporaryDirectory()
        let refused = try Self.run("gen sine duration=0.1", cwd: dir)
        #expect(refused.status == 64 && refused.bytes == 0 && refused.stderr == Self.message, "\(refused)")
        let forced = try Self.run("gen sine duration=0.1 -o -", cwd: dir)
        #expect(forced.status == 0 && forced.bytes == 44 + 4800 * 2 && forced.stderr.isEmpty, "\(forced)")
        // Argument errors still come first.
        let bad = try Self.run("gen sine freq=x", cwd: dir)
        #expect(bad.status == 64 && bad.stderr.contains("freq=x"), "\(bad)")
    }
}
