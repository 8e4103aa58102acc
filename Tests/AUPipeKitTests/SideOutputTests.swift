import Foundation
import TestScratch
import Testing
import AUPipeKit
#if canImport(Glibc)
import Glibc
#endif

/// `SideOutput` on real files, FIFOs and pipes in a temporary directory: the bytes of a file
/// equal the main output's, a FIFO never stalls the stream (drops are whole frames, counted),
/// `block` delivers every frame, readers that go away or never come, and the refusals.
@Suite struct SideOutputTests {
    let dir: URL

    init() throws {
        dir = TestScratch.root.appendingPathComponent("aupipe-side-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Makes a FIFO and opens its read end without blocking (so that the writer's open succeeds);
    /// returns its path and the read descriptor.
    func fifo(_ name: String = "fifo") throws -> (String, Int32) {
        let p = path(name)
        #expect(mkfifo(p, 0o644) == 0)
        let fd = open(p, O_RDONLY | O_NONBLOCK)
        try #require(fd >= 0)
        return (p, fd)
    }

    /// The live-test stream: s16le 8 kHz, 3 channels, where frame i holds i & 0x7FFF, i >> 15
    /// and a check value, so that every frame's index can be read back exactly. Its 6-byte
    /// frames do not divide a pipe's 4096-byte pages, so a frame torn by a pipe would show.
    static let format = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 3)
    static let frameBytes = 6
    /// Frames a 64 KiB pipe holds at most.
    static let pipeFrames = 65536 / frameBytes

    static func counting(_ range: Range<Int>) -> [Float] {
        range.flatMap { [Float($0 & 0x7FFF) / 32768, Float($0 >> 15) / 32768, Float(check($0)) / 32768] }
    }

    static func check(_ i: Int) -> Int { (i &* 7919) & 0x7FFF }

    /// Writes frames `range` in blocks of `block` frames.
    static func write(_ out: SideOutput, _ range: Range<Int>, block: Int = 80) throws {
        var i = range.lowerBound
        while i < range.upperBound {
            let n = min(block, range.upperBound - i)
            let samples = counting(i..<(i + n))
            try samples.withUnsafeBufferPointer { try out.write(samples: $0.baseAddress!, frames: n) }
            i += n
        }
    }

    /// Parses a stream a reader got: its header must be valid, its audio whole s16 stereo
    /// frames; returns the frame indices.
    static func indices(_ bytes: [UInt8], container: ContainerKind = .wav) throws -> [Int] {
        let (header, _) = try HeaderReader.read(MemorySource(bytes), rawFormat: nil)
        #expect(header.container == container)
        #expect(header.format == format)
        let audio = Array(bytes.dropFirst(Int(header.headerBytes)))
        #expect(audio.count % frameBytes == 0, "the reader got part of a frame: \(audio.count) bytes")
        return frameIndices(audio, bigEndian: false)
    }

    /// The indices of the counting frames in s16 `audio` (-1 for a frame that is not one).
    static func frameIndices(_ audio: [UInt8], bigEndian: Bool) -> [Int] {
        func sample(_ k: Int) -> Int {
            let a = Int(audio[k]), b = Int(audio[k + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        return stride(from: 0, to: audio.count - audio.count % frameBytes, by: frameBytes).map { k in
            let i = sample(k) | sample(k + 2) << 15
            return sample(k + 4) == check(i) ? i : -1
        }
    }

    /// Reads `fd` to its end (the writer closed) in another thread, `chunk` bytes at a time with
    /// `pause` microseconds between reads; or first opens `openPath` after `openDelay` µs. After
    /// `limit` bytes it stops reading and leaves `fd` open (the test drains and closes it).
    final class Reader: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private let finished = DispatchSemaphore(value: 0)

        init(fd: Int32, chunk: Int = 65536, pause: UInt32 = 0, openDelay: UInt32 = 0, openPath: String? = nil, limit: Int = .max) {
            Thread { [self] in
                var fd = fd
                if let openPath {
                    usleep(openDelay)
                    fd = open(openPath, O_RDONLY | O_NONBLOCK)
                }
                var got: [UInt8] = [], buffer = [UInt8](repeating: 0, count: chunk)
                while fd >= 0 {
                    // Poll first: a FIFO whose writer has not come yet reads as its end.
                    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&p, 1, -1)
                    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, chunk) }
                    if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                    if n <= 0 { break }
                    got += buffer[0..<n]
                    if got.count >= limit { break }
                    if pause > 0 { usleep(pause) }
                }
                if fd >= 0 && got.count < limit { close(fd) }
                lock.lock(); bytes = got; lock.unlock()
                finished.signal()
            }.start()
        }

        /// Waits for the reader to end and returns what it read.
        func result() -> [UInt8] {
            finished.wait()
            lock.lock(); defer { lock.unlock() }
            return bytes
        }
    }

    /// Reads what is left in `fd` (non-blocking) until its end or nothing more comes.
    static func drain(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, 65536) }
            if n <= 0 { return out }
            out += buffer[0..<n]
        }
    }

    /// A stop condition the test triggers (SIGINT in the test process would stop every reader in it).
    final class TestStop: @unchecked Sendable {
        private let lock = NSLock()
        private var set = false
        let pipe: [Int32]
        init() {
            var fds: [Int32] = [0, 0]
            Glibc.pipe(&fds)
            pipe = fds
        }
        deinit { close(pipe[0]); close(pipe[1]) }
        func trigger() {
            lock.lock(); set = true; lock.unlock()
            var b: UInt8 = 1
            _ = Glibc.write(pipe[1], &b, 1)
        }
        var condition: StopCondition {
            StopCondition(isSet: { self.lock.lock(); defer { self.lock.unlock() }; return self.set }, descriptor: { self.pipe[0] })
        }
    }

    // MARK: regular files

    struct FileCase: CustomTestStringConvertible, Sendable {
        var container: ContainerKind
        var token: String
        var channels: Int
        var frames: Int
        var testDescription: String { "\(container.rawValue) \(token) \(channels) ch \(frames) frames" }
    }

    /// The same samples through the main output (`-o FILE`, `-t`, `--out-format`) and through a
    /// side output give the same bytes, header patched with the true sizes (and RIFF's pad byte),
    /// and the same clip count.
    @Test(arguments: [
        FileCase(container: .caf, token: "s16le", channels: 2, frames: 1000),
        FileCase(container: .caf, token: "f32be", channels: 1, frames: 333),
        FileCase(container: .wav, token: "s16le", channels: 2, frames: 1000),
        FileCase(container: .wav, token: "u8", channels: 1, frames: 101), // odd data: a pad byte
        FileCase(container: .au, token: "s24be", channels: 2, frames: 777),
        FileCase(container: .raw, token: "s16be", channels: 2, frames: 500),
        FileCase(container: .wav, token: "s16le", channels: 2, frames: 0), // header only
    ])
    func aFileGetsTheBytesOfTheMainOutput(_ c: FileCase) throws {
        let encoding = try SampleEncoding(token: c.token)
        let input = StreamFormat(encoding: .f32le, sampleRate: 8000, channels: c.channels)
        let samples = TestSignals.tones(frames: c.frames, rate: 8000, channels: c.channels, level: 1.4) // some clip
        let mainPath = path("main.\(c.container.rawValue)")
        var options = PipelineOptions()
        options.container = c.container
        options.outFormat = FormatSpec.Parts(token: encoding)
        let report = try Pipeline(chain: [], options: options)
            .run(source: MemorySource(TestSignals.wav(samples, input)), sink: FileDescriptorSink.create(mainPath))

        let sidePath = path("side.\(c.container.rawValue)")
        let side = try SideOutput(path: sidePath, options: SideOutputOptions(label: "tee", encoding: encoding))
        #expect(side.container == c.container) // from the extension
        // f32 samples into an integer copy: dithered as the main output is (the run's default).
        try side.prepare(format: input, maxFrames: 64, precision: SignalPrecision(input.encoding), dither: .auto)
        var i = 0
        for n in [1, 7, 64, 200] + Array(repeating: 64, count: c.frames / 64 + 1) where i < c.frames {
            let k = min(n, c.frames - i)
            try samples.withUnsafeBufferPointer { try side.write(samples: $0.baseAddress! + i * c.channels, frames: k) }
            i += k
        }
        try side.finish()

        let main = try [UInt8](Data(contentsOf: URL(fileURLWithPath: mainPath)))
        let copy = try [UInt8](Data(contentsOf: URL(fileURLWithPath: sidePath)))
        #expect(copy == main, "\(copy.count) bytes vs \(main.count)")
        #expect(side.clippedSamples == report.encoderClipped)
        if encoding.isInteger && c.frames > 0 { #expect(side.clippedSamples > 0) }
        #expect(side.framesWritten == Int64(c.frames) && side.droppedFrames == 0)
        #expect(side.sizesPatched == (c.container != .raw))
        let frameBytes = c.channels * encoding.bytesPerSample
        if c.container == .raw {
            #expect(copy.count == c.frames * frameBytes)
        } else {
            let (header, _) = try HeaderReader.read(MemorySource(copy), rawFormat: nil)
            // A patched size of 0 reads as "to the end", as on a pipe.
            #expect(header.dataBytes == (c.frames == 0 ? nil : UInt64(c.frames * frameBytes)), "\(String(describing: header.dataBytes))")
            #expect(header.format.encoding == encoding)
            let pad = c.container == .wav && (c.frames * frameBytes) % 2 == 1 ? 1 : 0
            #expect(copy.count == Int(header.headerBytes) + c.frames * frameBytes + pad)
        }
        #expect(side.statsNote.contains("sizes patched") == (c.container != .raw), "\(side.statsNote)")
    }

    @Test func theContainerComesFromTypeThenTheExtensionThenTheDefault() throws {
        #expect(try SideOutput(path: path("a.AU"), options: SideOutputOptions(label: "tee")).container == .au)
        #expect(try SideOutput(path: path("a.wav"), options: SideOutputOptions(label: "tee", container: .caf)).container == .caf)
        #expect(try SideOutput(path: path("noextension"), options: SideOutputOptions(label: "tee")).container == .wav)
        var options = SideOutputOptions(label: "tee")
        options.defaultContainer = .caf
        #expect(try SideOutput(path: path("copy.data"), options: options).container == .caf)
        // Nothing is created before audio.
        #expect(!FileManager.default.fileExists(atPath: path("a.AU")))
    }

    @Test func theEncodingIsTheStreamsMovedToWhatTheContainerHolds() throws {
        let side = try SideOutput(path: path("x.wav"), options: SideOutputOptions(label: "tee"))
        try side.prepare(format: StreamFormat(encoding: try SampleEncoding(token: "s16be"), sampleRate: 8000, channels: 1), maxFrames: 10)
        #expect(side.plan?.format.encoding == .s16le)
        try side.finish()
        #expect(side.statsNote == "\(path("x.wav")): WAV s16le:8000:1, 0 frames written, sizes patched")
    }

    // MARK: FIFOs and pipes

    /// A reader that never reads: writing 20 s of audio completes (the pipe takes 64 KiB, the
    /// queue 2 s, the rest is dropped, whole frames), and the reader gets a valid stream: a
    /// prefix of the frames written.
    @Test func aReaderThatNeverReadsNeverStallsTheStream() throws {
        let (p, readFD) = try fifo()
        defer { close(readFD) }
        let side = try SideOutput(path: p, options: SideOutputOptions(label: "tee"))
        #expect(side.isStream)
        try side.prepare(format: Self.format, maxFrames: 80)
        try Self.write(side, 0..<160_000)
        // The pipe holds at most 64 KiB, the queue 2 s (16000 frames, and the header's room):
        // the rest, and only the rest, was dropped.
        let headerRoom: Int = 68 / Self.frameBytes + 1 // WAV_FORMAT_EXTENSIBLE for 3 channels
        let fewest: Int = 160_000 - Self.pipeFrames - 16_000 - headerRoom, most: Int = 160_000 - 16_000 + 80
        #expect((Int64(fewest)...Int64(most)).contains(side.droppedFrames), "\(side.droppedFrames) dropped")
        try side.finish() // gives up on the queue after 0.5 s without progress
        #expect(side.framesWritten + side.droppedFrames == 160_000)
        let got = try Self.indices(Self.drain(readFD))
        #expect(got == Array(0..<got.count), "not a prefix")
        #expect(Int64(got.count) == side.framesWritten)
        #expect(got.count > 0 && got.count <= Self.pipeFrames, "the pipe holds 64 KiB: \(got.count) frames")
        #expect(side.statsNote.contains("\(side.droppedFrames) dropped"), "\(side.statsNote)")
    }

    /// A slow reader that stops reading before the end (while the queue still holds frames):
    /// frames arrive in order, whole, in runs with gaps where frames were dropped, and every
    /// frame is counted once, written or dropped. A pipe takes pieces that end on frames, so
    /// what `finish` gives up on leaves no torn frame behind.
    @Test func aSlowReaderGetsRunsOfWholeFramesInOrder() throws {
        let (p, readFD) = try fifo()
        defer { close(readFD) }
        let side = try SideOutput(path: p, options: SideOutputOptions(label: "tee"))
        try side.prepare(format: Self.format, maxFrames: 80)
        let reader = Reader(fd: readFD, chunk: 1000, pause: 200, limit: 100_000)
        try Self.write(side, 0..<200_000)
        try side.finish()
        let got = try Self.indices(reader.result() + Self.drain(readFD))
        #expect(side.framesWritten + side.droppedFrames == 200_000)
        #expect(Int64(got.count) == side.framesWritten)
        #expect(got.first == 0)
        #expect(zip(got, got.dropFirst()).allSatisfy { $0 < $1 } && (got.last ?? 0) < 200_000, "frames out of order or invented")
    }

    /// `block: true` with a reader: every frame arrives, in order, nothing dropped.
    @Test func blockingWritesDeliverEveryFrame() throws {
        let (p, readFD) = try fifo()
        let side = try SideOutput(path: p, options: SideOutputOptions(label: "tee", block: true))
        try side.prepare(format: Self.format, maxFrames: 80)
        let reader = Reader(fd: readFD, chunk: 3000, pause: 100)
        try Self.write(side, 0..<100_000)
        try side.finish()
        #expect(try Self.indices(reader.result()) == Array(0..<100_000))
        #expect(side.framesWritten == 100_000 && side.droppedFrames == 0)
    }

    /// `block: true` waits for a reader to open the FIFO: nothing is dropped.
    @Test func blockingWaitsForAReaderToOpenTheFIFO() throws {
        let p = path("late")
        #expect(mkfifo(p, 0o644) == 0)
        let side = try SideOutput(path: p, options: SideOutputOptions(label: "tee", container: .caf, block: true))
        try side.prepare(format: Self.format, maxFrames: 80)
        let reader = Reader(fd: -1, openDelay: 200_000, openPath: p)
        try Self.write(side, 0..<20_000)
        try side.finish()
        #expect(try Self.indices(reader.result(), container: .caf) == Array(0..<20_000))
        #expect(side.droppedFrames == 0)
    }

    /// `>(command)` is a pipe named /dev/fd/N.
    @Test func aPipeLikeProcessSubstitution() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let side = try SideOutput(path: "/dev/fd/\(fds[1])", options: SideOutputOptions(label: "tee", block: true))
        #expect(side.container == .wav && side.isStream)
        try side.prepare(format: Self.format, maxFrames: 80)
        let reader = Reader(fd: fds[0], chunk: 5000)
        try Self.write(side, 0..<80)
        close(fds[1]) // the side output holds its own descriptor of the pipe now
        try Self.write(side, 80..<50_000)
        try side.finish()
        #expect(try Self.indices(reader.result()) == Array(0..<50_000))
    }

    /// A reader that closes early: the side output stops with one warning and no error; the
    /// frames after it are counted as dropped.
    @Test func aReaderThatClosesEarlyStopsTheOutputWithOneWarning() throws {
        let (p, readFD) = try fifo()
        let side = try SideOutput(path: p, options: SideOutputOptions(label: "tee"))
        let warnings = Warnings()
        side.onWarning = warnings.add
        try side.prepare(format: Self.format, maxFrames: 80)
        try Self.write(side, 0..<4000)
        let got = try Self.indices(Self.drain(readFD))
        #expect(got == Array(0..<4000))
        close(readFD)
        try Self.write(side, 4000..<40_000)
        try side.finish()
        #expect(warnings.lines.count == 1, "\(warnings.lines)")
        #expect(warnings.lines.first?.hasPrefix("aupipe: tee (\(p)): warning: its reader went away after 4000 frames") == true, "\(warnings.lines)")
        #expect(side.framesWritten == 4000 && side.droppedFrames == 36_000)
        #expect(side.statsNote.contains("its reader went away"), "\(side.statsNote)")
    }

    /// A FIFO nobody opens: no hang, every frame dropped and counted, said once at the end.
    @Test func aFIFOWithNoReaderDropsEverythingWithoutWaiting() throws {
        let p = path("lonely")
        #expect(mkfifo(p, 0o644) == 0)
        let side = try SideOutput(path: p, options: SideOutputOptions(label: "tee"))
        let warnings = Warnings()
        side.onWarning = warnings.add
        try side.prepare(format: Self.format, maxFrames: 80)
        try Self.write(side, 0..<24_000)
        try side.finish()
        #expect(side.framesWritten == 0 && side.droppedFrames == 24_000)
        #expect(warnings.lines == ["aupipe: tee (\(p)): warning: no reader opened it; its 24000 frames were dropped"])
        #expect(side.statsNote.hasSuffix("0 frames written, 24000 dropped, no reader opened it"), "\(side.statsNote)")
    }

    /// A reader that comes late gets a valid stream (the header first) from the frame after it
    /// opened; what came before is counted as dropped.
    @Test func aReaderThatComesLateGetsAValidStreamFromThen() throws {
        let p = path("late")
        #expect(mkfifo(p, 0o644) == 0)
        let side = try SideOutput(path: p, options: SideOutputOptions(label: "tee", container: .au))
        try side.prepare(format: Self.format, maxFrames: 80)
        try Self.write(side, 0..<8000)
        let readFD = open(p, O_RDONLY | O_NONBLOCK)
        defer { close(readFD) }
        try Self.write(side, 8000..<12_000)
        try side.finish()
        let bytes = Self.drain(readFD)
        // AU is big-endian.
        let (header, _) = try HeaderReader.read(MemorySource(bytes), rawFormat: nil)
        #expect(header.container == .au && header.format.encoding.token == "s16be")
        let audio = Array(bytes.dropFirst(Int(header.headerBytes)))
        #expect(Self.frameIndices(audio, bigEndian: true) == Array(8000..<12_000))
        #expect(side.droppedFrames == 8000 && side.framesWritten == 4000)
    }

    /// The stop condition (SIGINT/SIGTERM) ends a blocking write to a reader that does not read,
    /// and a blocking wait for a reader that never comes; what could not go is counted.
    @Test func aStopEndsEveryWait() throws {
        let (p, readFD) = try fifo()
        defer { close(readFD) }
        let stop = TestStop()
        let side = try SideOutput(path: p, options: SideOutputOptions(label: "tee", block: true), stop: stop.condition)
        try side.prepare(format: Self.format, maxFrames: 80)
        let trigger = Thread { usleep(200_000); stop.trigger() }
        trigger.start()
        try Self.write(side, 0..<100_000) // 400 KB into a 64 KiB pipe nobody reads: waits until the stop
        try side.finish()
        #expect(side.droppedFrames > 0 && side.framesWritten + side.droppedFrames == 100_000)

        let q = path("nobody")
        #expect(mkfifo(q, 0o644) == 0)
        let stop2 = TestStop()
        let waiting = try SideOutput(path: q, options: SideOutputOptions(label: "tee", block: true), stop: stop2.condition)
        try waiting.prepare(format: Self.format, maxFrames: 80)
        Thread { usleep(200_000); stop2.trigger() }.start()
        try Self.write(waiting, 0..<1000)
        try waiting.finish()
        #expect(waiting.framesWritten == 0 && waiting.droppedFrames == 1000)
    }

    @Test func writingBeforePrepareOrAfterFinishIsAnErrorNotACrash() throws {
        let side = try SideOutput(path: path("x.wav"), options: SideOutputOptions(label: "tee"))
        let one: [Float] = [0, 0, 0]
        #expect(throws: AUPipeError.self) { try side.write(samples: one, frames: 1) }
        try side.prepare(format: Self.format, maxFrames: 1)
        try side.write(samples: one, frames: 1)
        try side.finish()
        try side.finish() // once only: a second call does nothing
        #expect(throws: AUPipeError.self) { try side.write(samples: one, frames: 1) }
        #expect(side.framesWritten == 1)
    }

    // MARK: refusals

    @Test func refusals() throws {
        func refusal(_ path: String, _ options: SideOutputOptions = SideOutputOptions(label: "tee")) -> AUPipeError? {
            do { _ = try SideOutput(path: path, options: options) } catch let e as AUPipeError { return e } catch { return nil }
            return nil
        }
        let directory = refusal(dir.path)
        #expect(directory?.status == .cannotCreate && directory?.message == "tee (\(dir.path)): cannot write: it is a directory")
        let missing = refusal(path("no/such/dir/x.wav"))
        #expect(missing?.status == .cannotCreate && missing?.message.hasSuffix("cannot create: No such file or directory") == true, "\(String(describing: missing))")
        // stdout ("-", "/dev/stdout") is refused by the pipeline only while it is the main output
        // (TeeTests.stdoutIsACopyWhenTheOutputIsAFile).
        let wavBE = refusal(path("x.wav"), SideOutputOptions(label: "tee", encoding: try SampleEncoding(token: "s16be")))
        #expect(wavBE?.status == .usage)
        #expect(wavBE?.message == "tee (\(path("x.wav"))): the output is WAV and cannot hold s16be: WAV stores little-endian samples and unsigned 8-bit only; use format=s16le, or type=raw")
        let cafU16 = refusal(path("x"), SideOutputOptions(label: "tee", container: .caf, encoding: try SampleEncoding(token: "u16le")))
        #expect(cafU16?.status == .usage && cafU16?.message.contains("CAF stores signed integers only; use format=s16le") == true)
        // The main output's wording is unchanged.
        #expect(throws: AUPipeError.usage("the output is WAV and cannot hold s16be: WAV stores little-endian samples and unsigned 8-bit only; use --out-format s16le, or -t raw")) {
            try OutputPlan.check(try SampleEncoding(token: "s16be"), fits: .wav)
        }
        if geteuid() != 0 { // root may write anywhere
            let locked = path("locked")
            #expect(FileManager.default.createFile(atPath: locked, contents: nil, attributes: [.posixPermissions: 0o444]))
            #expect(refusal(locked)?.status == .cannotCreate)
        }
    }
}

/// Warnings a side output said (instead of stderr).
final class Warnings: @unchecked Sendable {
    private(set) var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
}
