import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// The block loop of a run: reads what the input has (up to 64 KiB), turns it into output —
/// copied, converted exactly, or decoded, run through the chain and encoded — writes it, and at
/// the end drains the chain, finishes the output's header and names what was wrong with the
/// input's end. Every buffer it uses is allocated once, in `init`.
package final class StreamLoop {
    /// How read bytes become output bytes.
    private enum Path {
        /// Same encoding, no unit touches the samples: the bytes are copied.
        case copy
        /// No unit touches the samples and the encodings differ only in byte order and/or in
        /// signed vs unsigned (same width): the top bit flips, the bytes swap. Exact.
        case exact(flipSign: Bool, swapBytes: Bool)
        /// The chain only selects, reorders, duplicates or silences channels, and the encoding
        /// stays: each output sample's bytes are copied from its input sample (`FrameShuffle`),
        /// the same bytes the float path writes.
        case select(FrameShuffle)
        /// Decode to float, run the chain, encode.
        case chain
    }

    /// Bytes one read asks for (a pipe's default capacity): what is available up to this is
    /// processed together and written with one write.
    package static let ioSize = 65536

    private let chain: Chain
    private let plan: OutputPlan
    private let header: StreamHeader
    private let source: any ByteSource
    private let sink: any ByteSink
    private let writer: OutputWriter
    /// The control FIFO and what it can reach, under `--control`.
    private let live: LiveControl?
    private let progress: ProgressMeter?
    /// `--monitor`: every block of output is played here too.
    private let monitor: MonitorOutput?
    /// The devices' losses: one that ends the run stops the reading (`ending`).
    private let losses: DeviceLosses?
    private let path: Path
    /// The input's audio after its header: the bytes it declares, decoded.
    private var input: StreamDecoder
    private let encoder: SampleCodec
    /// Dither before the encoder rounds (`EdgeDither`), and a block of dithered samples.
    private let ditherer: Ditherer?
    private let dithered: UnsafeMutablePointer<Float>?
    /// TPDF into s16le: dither, rounding and encoding in one pass (`Ditherer.encodeS16LE`).
    private let fusedS16: Bool
    private let inFrameBytes: Int, outFrameBytes: Int
    /// The input as read, with room for the header in front (a copied stream writes from here).
    private let readStorage: UnsafeMutableRawPointer
    private let readBuffer: UnsafeMutableRawBufferPointer
    /// One block decoded to float.
    private let floats: UnsafeMutablePointer<Float>
    /// Encoded output, with room for the header in front.
    private let outStorage: UnsafeMutableRawPointer
    private let outBuffer: UnsafeMutableRawPointer
    private let outCapacity: Int
    /// The most bytes one block can produce.
    private let pieceBytes: Int

    // Progress through the stream.
    private var carried = 0                 // bytes of an incomplete frame kept from the last read
    private var readBytesTotal = 0
    private var toLimit: UInt64?            // bytes --duration still allows, or nil
    private var framesIn: Int64 = 0
    private var framesOut: Int64 = 0
    private var clipped = 0
    /// NaN and infinities written to a float output, and the samples written so far (to place the first).
    private var nonFinite = NonFiniteSamples()
    private var samplesOut: Int64 = 0
    /// The output's reader went away: nothing more is written to it.
    private var outputClosed = false

    /// `limit`: `--duration`'s most input bytes to read (nil: to the end). `dither`: what the
    /// chain's output gets before it is encoded (nil: plain rounding).
    package init(chain: Chain, plan: OutputPlan, header: StreamHeader, source: any ByteSource, sink: any ByteSink,
         live: LiveControl?, progress: ProgressMeter?, monitor: MonitorOutput?, losses: DeviceLosses? = nil, limit: UInt64?,
         dither: Ditherer? = nil) {
        self.chain = chain
        self.plan = plan
        self.header = header
        self.source = source
        self.sink = sink
        self.live = live
        self.progress = progress
        self.monitor = monitor
        self.losses = losses
        input = StreamDecoder(header: header)
        toLimit = limit
        let inEncoding = header.format.encoding, outEncoding = plan.format.encoding
        encoder = SampleCodec(outEncoding)
        inFrameBytes = input.frameBytes
        outFrameBytes = plan.format.bytesPerFrame
        if let selection = chain.channelSelection, outEncoding == inEncoding, dither == nil,
           let shuffle = FrameShuffle(selection: selection, inChannels: header.format.channels, encoding: inEncoding) {
            path = .select(shuffle)
        } else if !chain.isEmpty {
            path = .chain
        } else if outEncoding == inEncoding {
            path = .copy
        } else if outEncoding.bits == inEncoding.bits,
                  outEncoding.kind == inEncoding.kind || (inEncoding.isInteger && outEncoding.isInteger) {
            path = .exact(flipSign: outEncoding.kind != inEncoding.kind, swapBytes: outEncoding.isBigEndian != inEncoding.isBigEndian)
        } else {
            path = .chain
        }
        writer = OutputWriter(sink: sink, header: plan.header(dataBytes: nil))

        // One read takes whatever is available, up to 64 KiB or one block; it is processed in
        // pieces of at most one block and written with one write. Both buffers keep room for the
        // header in front of the audio, so the header goes out with the first audio in one write.
        let readFrames = max(chain.maxFrames, Self.ioSize / inFrameBytes)
        let room = writer.headerRoom
        readStorage = .allocate(byteCount: room + readFrames * inFrameBytes, alignment: 16)
        readBuffer = UnsafeMutableRawBufferPointer(start: readStorage + room, count: readFrames * inFrameBytes)
        floats = .allocate(capacity: chain.maxFrames * header.format.channels)
        // Room for one read's worth of output, and at least one piece's most: when the next piece
        // might not fit (a large rate increase), what is there is written first.
        pieceBytes = chain.maxOutputFrames * outFrameBytes
        let pieces = (readFrames + chain.maxFrames - 1) / chain.maxFrames
        switch path {
        case .copy: outCapacity = 0
        case .exact, .select: outCapacity = readFrames * outFrameBytes
        case .chain: outCapacity = max(pieceBytes, min(pieces * pieceBytes, 4 * Self.ioSize))
        }
        outStorage = .allocate(byteCount: room + max(outCapacity, 1), alignment: 16)
        outBuffer = outStorage + room
        if case .chain = path, let dither {
            ditherer = dither
            fusedS16 = dither.fusesEncoder(of: plan.format.encoding)
            dithered = fusedS16 ? nil : .allocate(capacity: max(1, chain.maxOutputFrames) * plan.format.channels)
        } else {
            ditherer = nil
            dithered = nil
            fusedS16 = false
        }
    }

    deinit {
        readStorage.deallocate()
        floats.deallocate()
        outStorage.deallocate()
        dithered?.deallocate()
    }

    /// Streams the whole input; fills in the report's frame counts, clips, patching and any
    /// error in the input's end.
    package func run(into report: inout RunReport) throws {
        if case .select = path { report.movedAsBytes = true }
        do {
            try stream()
        } catch is OutputClosed {
            // The reader went away (`| head -c 1000`): reading stops, and the chain still ends
            // as after SIGINT — its drain writes the plot= files and the last figures — with
            // nothing more written. Not an error (status 0); the input was not read to its end.
            outputClosed = true
            try chain.drain { _, _ in }
            report.outputClosed = true
        } catch {
            // A unit or a write failed: what was written still gets its header and true sizes
            // (best effort: the output itself may be what failed), then the error ends the run.
            try? finishOutput(into: &report)
            throw error
        }
        try finishOutput(into: &report)
        report.dataError = outputClosed ? nil : losses?.ending ?? inputEndError()
    }

    /// Every read through to the chain's drain.
    private func stream() throws {
        while !input.isComplete && toLimit != 0 && losses?.ending == nil {
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: readBuffer[carried..<(carried + readSize())]))
            if n == 0 { break }
            input.take(n)
            if toLimit != nil { toLimit! -= UInt64(n) }
            readBytesTotal += n
            let frames = (carried + n) / inFrameBytes
            framesIn += Int64(frames)
            switch path {
            case .copy: try emit(readBuffer.baseAddress!, frames * inFrameBytes)
            case .exact(let flipSign, let swapBytes): try convertExactly(frames, flipSign: flipSign, swapBytes: swapBytes)
            case .select(let shuffle): try select(frames, shuffle)
            case .chain: try runChain(frames)
            }
            if case .chain = path {} else { framesOut += Int64(frames) }
            progress?.update(bytes: UInt64(readBytesTotal), frames: framesIn)
            keepPartialFrame(after: frames, of: carried + n)
        }
        if case .chain = path { try drainChain() }
    }

    /// How many bytes the next read asks for.
    private func readSize() -> Int {
        var want = readBuffer.count - carried
        if writer.headerPending, writer.headerRoom > 0, byteForByte {
            // The first copy ends where header + audio fill 64 KiB, so that later 64 KiB writes
            // start on page boundaries (unaligned writes cost the kernel extra copies).
            want = max(inFrameBytes, (Self.ioSize - writer.headerRoom) / inFrameBytes * inFrameBytes) - carried
        }
        want = input.allowed(want)
        if let l = toLimit { want = Int(min(UInt64(want), l)) }
        return want
    }

    /// Whether each read's bytes are written as as many bytes (a copy, or channels moved within
    /// frames of the same size), so that aligning the first read aligns every later write.
    private var byteForByte: Bool {
        switch path {
        case .copy: return true
        case .select: return inFrameBytes == outFrameBytes
        case .exact, .chain: return false
        }
    }

    /// Moves the bytes of an incomplete last frame to the buffer's start.
    private func keepPartialFrame(after frames: Int, of available: Int) {
        carried = available - frames * inFrameBytes
        if carried > 0 {
            readBuffer.baseAddress!.copyMemory(from: readBuffer.baseAddress! + frames * inFrameBytes, byteCount: carried)
        }
    }

    /// `.exact`: the sign flips in place (the carried partial frame lies beyond), then the bytes swap.
    private func convertExactly(_ frames: Int, flipSign: Bool, swapBytes: Bool) throws {
        var data = readBuffer.baseAddress!
        let inEncoding = header.format.encoding
        let samples = frames * header.format.channels, width = inEncoding.bytesPerSample
        if flipSign { SampleCodec.flipSignBit(data, count: samples, width: width, bigEndian: inEncoding.isBigEndian) }
        if swapBytes {
            SampleCodec.swapByteOrder(data, into: outBuffer, count: samples, width: width)
            data = outBuffer
        }
        try emit(data, frames * outFrameBytes)
    }

    /// `.select`: the frames' samples moved as bytes, counted through every stage.
    private func select(_ frames: Int, _ shuffle: FrameShuffle) throws {
        shuffle.run(readBuffer.baseAddress!, frames: frames, into: outBuffer)
        chain.recordSelected(frames: frames)
        try emit(outBuffer, frames * outFrameBytes)
    }

    /// `.chain`: decodes, processes and encodes `frames` frames block by block, and writes them
    /// with one write (or more, when a large rate increase would overflow the output buffer).
    private func runChain(_ frames: Int) throws {
        var done = 0, outBytes = 0
        while done < frames {
            live?.service()
            if outBytes + pieceBytes > outCapacity {
                try emit(outBuffer, outBytes)
                outBytes = 0
            }
            let count = min(chain.maxFrames, frames - done)
            input.decode(readBuffer.baseAddress! + done * inFrameBytes, frames: count, into: floats)
            let (result, produced) = try chain.process(floats, frames: count)
            outBytes += encode(result, produced, at: outBytes)
            done += count
        }
        if outBytes > 0 { try emit(outBuffer, outBytes) }
    }

    /// After the input's end: what the units held back.
    private func drainChain() throws {
        try chain.drain { samples, frames in
            try emit(outBuffer, encode(samples, frames, at: 0))
        }
    }

    /// Encodes `frames` frames into the output buffer at `offset`; the bytes written.
    private func encode(_ samples: UnsafePointer<Float>, _ frames: Int, at offset: Int) -> Int {
        var samples = samples
        if fusedS16, let ditherer {
            clipped += ditherer.encodeS16LE(samples, frames: frames, into: outBuffer + offset)
            framesOut += Int64(frames)
            return frames * outFrameBytes
        }
        if let ditherer, let dithered {
            ditherer.process(samples, frames: frames, into: dithered)
            samples = UnsafePointer(dithered)
        }
        clipped += encoder.encode(samples, count: frames * plan.format.channels, into: outBuffer + offset)
        framesOut += Int64(frames)
        return frames * outFrameBytes
    }

    /// Writes audio to the output, and to the monitor device.
    private func emit(_ data: UnsafeMutableRawPointer, _ count: Int) throws {
        if plan.format.encoding.isFloat { noteNonFinite(data, count) }
        try writer.write(data, count: count)
        try monitor?.write(data, frames: count / outFrameBytes)
    }

    /// Counts the NaN and infinities among `count` bytes of float output at `data`: one
    /// branch-free pass over the encoded samples; the first is located only when one is found.
    private func noteNonFinite(_ data: UnsafeRawPointer, _ count: Int) {
        let e = plan.format.encoding, samples = count / e.bytesPerSample
        let found = NonFiniteSamples.count(in: data, samples: samples, encoding: e)
        if found > 0 {
            let index = nonFinite.first == nil ? NonFiniteSamples.firstIndex(in: data, samples: samples, encoding: e) ?? 0 : 0
            let at = samplesOut + Int64(index), channels = Int64(plan.format.channels)
            nonFinite.note(frame: at / channels, channel: Int(at % channels), count: Int64(found))
        }
        samplesOut += Int64(samples)
    }

    /// Writes the header of an empty stream, patches a file's header with the true sizes.
    private func finishOutput(into report: inout RunReport) throws {
        progress?.finish(bytes: UInt64(readBytesTotal), frames: framesIn)
        if !outputClosed {
            report.sizesPatched = try writer.finish(patching: plan, dataBytes: UInt64(framesOut) * UInt64(outFrameBytes))
        }
        report.framesIn = framesIn
        report.framesOut = framesOut
        report.encoderClipped = clipped
        report.outputNonFinite = nonFinite
    }

    /// What was wrong with the input's end, found after all complete frames were written: a
    /// torn last frame, or fewer bytes than the header declared. Nothing after a stop signal or
    /// `--duration`: then the stream did not end, it was stopped.
    private func inputEndError() -> AUPipeError? {
        guard !StopSignal.received, toLimit != 0 else { return nil }
        let format = header.format, container = header.container.rawValue.uppercased()
        if carried > 0, input.isComplete, let declared = header.dataBytes {
            return AUPipeError(.dataError, "\(source.name): the \(container) header declares \(counted(Int(declared), "byte")) of audio, not a whole number of \(inFrameBytes)-byte frames of \(format.spec); the last \(counted(carried, "byte")) were dropped",
                               cause: .inputEnd(.declaredSizeNotWholeFrames(bytes: carried)))
        }
        if carried > 0 {
            return AUPipeError(.dataError, "\(source.name): the stream ended mid-frame; \(counted(carried, "trailing byte")) dropped (a frame is \(inFrameBytes) bytes of \(format.spec))",
                               cause: .inputEnd(.midFrame(bytes: carried)))
        }
        if let r = input.remaining, r > 0, let declared = header.dataBytes {
            return AUPipeError(.dataError, "\(source.name): the stream ended \(counted(Int(r), "byte")) short of the \(declared) bytes its \(container) header declares; it is truncated",
                               cause: .inputEnd(.truncated(missing: r, declared: declared)))
        }
        return nil
    }
}

/// The control channel of a run and the units it reaches.
package struct LiveControl {
    package let channel: ControlChannel
    package let targets: ControlTargets

    /// Runs the commands that arrived since the last block; nothing to do (the usual case)
    /// costs a try-lock and no allocation.
    package func service() {
        for line in channel.takeLines() {
            let reply = targets.execute(line)
            if !reply.isEmpty { channel.reply(reply) }
        }
    }
}
