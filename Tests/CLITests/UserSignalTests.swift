import Foundation
import Testing

/// SIGUSR1 and SIGUSR2 are only for units that listen to them (`mute signal=`): a run without
/// one ignores them and goes on to its normal end (issue 24, item 5).
@Suite struct UserSignalTests {
    @Test func aRunThatDoesNotListenIgnoresBoth() throws {
        let d = try CLI.temporaryDirectory()
        // The input is a FIFO this script writes: once the first block has come out, aupipe is
        // running (its handlers are in place) and waiting for more; then both signals are sent.
        let r = try CLI.shell("""
            mkfifo in out
            "$AUPIPE" --in-format s16le:48000:1 gain -3 < in > out &
            pid=$!
            exec 3> in 4< out
            head -c 9600 /dev/zero >&3
            dd bs=9600 count=1 iflag=fullblock status=none <&4 > first.raw
            kill -USR1 $pid; kill -USR2 $pid
            head -c 9600 /dev/zero >&3; exec 3>&-
            cat <&4 > rest.raw
            wait $pid; echo "status=$?"
            stat -c %s first.raw rest.raw
            """, cwd: d)
        #expect(String(decoding: r.stdout, as: UTF8.self) == "status=0\n9600\n9600\n", "\(r.stderr)")
    }
}
