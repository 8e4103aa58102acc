/// Streams aupipe recognises but does not read: FLAC, MP3 (and other MPEG audio), Ogg (Opus,
/// Vorbis, FLAC in Ogg), AAC in ADTS, and Sony Wave64. They are told apart by their first bytes
/// so that they are refused with a hint to decode them, instead of being read as raw PCM with
/// `--in-format`, which turns compressed bytes into full-scale noise.
package struct ForeignStream: Equatable {
    /// The format's name in messages: `FLAC`.
    package let name: String
    /// The file extension the hint's example uses: `flac`.
    package let fileExtension: String
    /// False for an MPEG or ADTS frame sync (0xFFF…), which raw PCM can also start with (s16le -1
    /// is FF FF): such a start is refused only when no raw format was given.
    package let isCertain: Bool

    /// `riff` and the rest of the GUID that opens a Sony Wave64 file: its first 16 bytes.
    package static let wave64Magic: [UInt8] = Array("riff".utf8) + [0x2E, 0x91, 0xCF, 0x11, 0xA5, 0xD6, 0x28, 0xDB, 0x04, 0xC1, 0x00, 0x00]

    /// The foreign format `head` starts, or nil. `head` is the stream's first 4 bytes, or its
    /// first 16 when they start with `riff` (fewer where the stream is shorter).
    package static func identify(_ head: [UInt8]) -> ForeignStream? {
        guard head.count >= 4 else { return nil }
        let b = head
        switch String(decoding: b[0..<4], as: UTF8.self) {
        case "fLaC": return ForeignStream(name: "FLAC", fileExtension: "flac", isCertain: true)
        case "OggS": return ForeignStream(name: "Ogg (Opus, Vorbis or FLAC)", fileExtension: "ogg", isCertain: true)
        case "riff" where b.starts(with: wave64Magic) && b.count == wave64Magic.count:
            return ForeignStream(name: "Sony Wave64 (W64)", fileExtension: "w64", isCertain: true)
        default: break
        }
        // An ID3v2 tag: "ID3", major version 2...4, revision below 0xFF.
        if b[0] == 0x49, b[1] == 0x44, b[2] == 0x33, (2...4).contains(b[3]) {
            return ForeignStream(name: "MP3 (an ID3 tag)", fileExtension: "mp3", isCertain: true)
        }
        // An MPEG audio frame header: 11 sync bits, a version other than the reserved 01, a
        // layer other than 00, a bitrate index other than 1111 and a rate index other than 11.
        if b[0] == 0xFF, b[1] & 0xE0 == 0xE0 {
            let version = b[1] >> 3 & 3, layer = b[1] >> 1 & 3
            if version != 1, layer != 0, b[2] >> 4 != 15, b[2] >> 2 & 3 != 3 {
                return ForeignStream(name: "MP3 (MPEG audio)", fileExtension: "mp3", isCertain: false)
            }
            // ADTS: 12 sync bits, layer 00, a sampling index below 13.
            if b[1] & 0xF6 == 0xF0, b[2] >> 2 & 0xF < 13 {
                return ForeignStream(name: "AAC (ADTS)", fileExtension: "aac", isCertain: false)
            }
        }
        return nil
    }

    /// The refusal for a stream named `source`: what it is and how to decode it. `formatOption`
    /// is `format=` for a mix bus or an aec reference, whose hint is a process substitution.
    package func refusal(source: String, formatOption: String) -> AUPipeError {
        let decode = "-v error -i in.\(fileExtension) -f caf -"
        let example = formatOption.hasSuffix("=") ? "<(ffmpeg -nostdin \(decode))" : "ffmpeg \(decode) | aupipe ..."
        return .data("\(source): the stream is \(name), which aupipe does not decode; decode it first, e.g. \(example)")
    }
}
