/// `aupipe info`: what a stream's header says, as a format spec and as ASBD fields.
public enum InfoCommand {
    public static func run(path: String, inFormat: StreamFormat?, console: any Console) throws {
        let source = try FileDescriptorSource.open(path)
        let (header, _) = try HeaderReader.read(source, rawFormat: inFormat)
        for line in describe(header, fileSize: source.regularFileSize) { console.out(line) }
    }

    /// The lines `info` prints for `header`; `fileSize` lets it measure a file whose header gives no size.
    public static func describe(_ header: StreamHeader, fileSize: Int64?) -> [String] {
        let f = header.format
        let asbd = AudioStreamBasicDescription(f)
        var lines = ["container: \(header.container.rawValue)", "format: \(f.spec)"]
        var dataBytes = header.dataBytes
        // What a regular file holds after its header: all there is to read.
        let present = fileSize.map { UInt64(max(0, $0 - header.headerBytes)) }
        var truncated: (declared: UInt64, present: UInt64)?
        if let declared = dataBytes, let present, present < declared {
            truncated = (declared, present)
            dataBytes = present
        }
        if dataBytes == nil { dataBytes = present }
        if let d = dataBytes {
            let bytesPerFrame = UInt64(f.bytesPerFrame)
            let frames = d / bytesPerFrame
            let seconds = Double(frames) / Double(f.sampleRate)
            lines.append("frames: \(frames)")
            lines.append("duration: \(String(format3: seconds)) s")
            if let t = truncated {
                lines.append("warning: the file is truncated: its \(header.container.rawValue.uppercased()) header declares \(counted(Int(t.declared / bytesPerFrame), "frame")) (\(counted(Int(t.declared), "byte"))), the file holds \(counted(Int(t.present), "byte")) of audio")
            }
            if d % bytesPerFrame != 0 { lines.append("warning: \(counted(Int(d % bytesPerFrame), "trailing byte")) left over, less than a whole frame") }
        } else if header.container == .raw {
            lines.append("frames: unknown (raw input from a pipe: no header gives its length)")
        } else {
            lines.append("frames: unknown (the header says: read to the end of the stream)")
        }
        lines.append(header.container == .raw ? "header: none (raw input, read as --in-format says)" : "header: \(header.headerBytes) bytes")
        lines += [
            "mSampleRate: \(asbd.sampleRate)",
            "mFormatID: \(asbd.formatID)",
            "mFormatFlags: 0x\(String(asbd.formatFlags, radix: 16, uppercase: true))\(flagNames(asbd.formatFlags))",
            "mBytesPerPacket: \(asbd.bytesPerPacket)",
            "mFramesPerPacket: \(asbd.framesPerPacket)",
            "mBytesPerFrame: \(asbd.bytesPerFrame)",
            "mChannelsPerFrame: \(asbd.channelsPerFrame)",
            "mBitsPerChannel: \(asbd.bitsPerChannel)",
        ]
        return lines
    }

    package static func flagNames(_ flags: UInt32) -> String {
        var names: [String] = []
        if flags & AudioStreamBasicDescription.flagIsFloat != 0 { names.append("float") }
        if flags & AudioStreamBasicDescription.flagIsBigEndian != 0 { names.append("big-endian") }
        if flags & AudioStreamBasicDescription.flagIsSignedInteger != 0 { names.append("signed integer") }
        if flags & AudioStreamBasicDescription.flagIsPacked != 0 { names.append("packed") }
        return names.isEmpty ? "" : " (\(names.joined(separator: ", ")))"
    }
}
