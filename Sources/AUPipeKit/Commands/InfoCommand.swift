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
        if dataBytes == nil, let size = fileSize { dataBytes = UInt64(max(0, size - header.headerBytes)) }
        if let d = dataBytes {
            let frames = d / UInt64(f.bytesPerFrame)
            let seconds = Double(frames) / Double(f.sampleRate)
            lines.append("frames: \(frames)")
            lines.append("duration: \(String(format3: seconds)) s")
            if d % UInt64(f.bytesPerFrame) != 0 { lines.append("warning: \(d % UInt64(f.bytesPerFrame)) trailing bytes do not make a whole frame") }
        } else {
            lines.append("frames: unknown (the header says: read to the end of the stream)")
        }
        lines.append("header: \(header.headerBytes) bytes")
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

    static func flagNames(_ flags: UInt32) -> String {
        var names: [String] = []
        if flags & AudioStreamBasicDescription.flagIsFloat != 0 { names.append("float") }
        if flags & AudioStreamBasicDescription.flagIsBigEndian != 0 { names.append("big-endian") }
        if flags & AudioStreamBasicDescription.flagIsSignedInteger != 0 { names.append("signed integer") }
        if flags & AudioStreamBasicDescription.flagIsPacked != 0 { names.append("packed") }
        return names.isEmpty ? "" : " (\(names.joined(separator: ", ")))"
    }
}

extension String {
    /// A number with three decimals, without Foundation.
    init(format3 value: Double) {
        let scaled = (value * 1000).rounded()
        let whole = Int(scaled / 1000)
        let frac = Int(abs(scaled).truncatingRemainder(dividingBy: 1000))
        let sign = value < 0 && whole == 0 ? "-" : ""
        self = "\(sign)\(whole)." + String(repeating: "0", count: 3 - String(frac).count) + String(frac)
    }
}
