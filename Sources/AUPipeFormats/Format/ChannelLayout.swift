/// Where each channel of a stream is meant to be played: one `Speaker` per channel, read from
/// the input's WAV channel mask or CAF `chan` chunk, or the default layout for the channel count
/// (`WAVFile.defaultMask`: mono FC, stereo FL FR, quad, 5.1, 7.1, else the first N mask bits).
///
/// Used by the loudness meters (`meter`, `loudnorm`) to weight each channel as ITU-R BS.1770-4
/// says (`LoudnessChannelMap`).
public struct ChannelLayout: Equatable, Sendable {
    /// A channel's place: a low-frequency effects channel, a direction, or not known.
    public enum Speaker: Equatable, Sendable {
        case lowFrequency
        /// `azimuth` in degrees, positive to the left (30 is front left, 90 left side, 180
        /// behind); `elevation` in degrees above the horizontal plane.
        case direction(azimuth: Double, elevation: Double)
        /// No position: a mask with fewer bits than channels, mask 0, a CAF label without one.
        case unknown
    }

    public var speakers: [Speaker]

    public init(speakers: [Speaker]) { self.speakers = speakers }

    /// The layout the input's header gives (the WAV mask, the CAF `chan` chunk), or else the
    /// default one for its channel count.
    public init(header: StreamHeader) {
        let channels = header.format.channels
        if let mask = header.wavChannelMask {
            self.init(wavMask: mask, channels: channels)
        } else if let chan = header.cafChannelLayout, let layout = Self(cafChan: chan, channels: channels) {
            self = layout
        } else {
            self = .standard(channels: channels)
        }
    }

    /// The default layout for `channels`: the speakers of `WAVFile.defaultMask`.
    public static func standard(channels: Int) -> ChannelLayout {
        ChannelLayout(wavMask: WAVFile.defaultMask(channels: channels), channels: channels)
    }

    /// The speakers of a WAVE_FORMAT_EXTENSIBLE dwChannelMask: channel k is the k-th set bit;
    /// channels beyond the set bits (and bits above the 18 defined ones) have no position.
    ///
    /// A back pair (BL, BR) in a mask without a side pair (SL, SR) is the surround pair of
    /// ITU-R BS.775's 5.1 at 110°: the WAV 5.1 (FL FR FC LFE BL BR, the layout ffmpeg, sox and
    /// most encoders write) and quad name their surrounds "back". Beside a side pair (7.1) the
    /// back pair is the rear one, at 135°.
    public init(wavMask: UInt32, channels: Int) {
        var speakers: [Speaker] = []
        let backIsSurround = wavMask & Self.sidePair == 0
        for bit in 0..<32 where wavMask & (1 << UInt32(bit)) != 0 && speakers.count < channels {
            if backIsSurround, bit == 4 || bit == 5 {
                speakers.append(Self.at(bit == 4 ? 110 : -110))
                continue
            }
            speakers.append(bit < Self.wavSpeakers.count ? Self.wavSpeakers[bit] : .unknown)
        }
        speakers += Array(repeating: .unknown, count: channels - speakers.count)
        self.speakers = speakers
    }

    /// The speakers of a CAF `chan` chunk's body (big-endian mChannelLayoutTag, mChannelBitmap,
    /// mNumberChannelDescriptions, then 20-byte descriptions): a bitmap is read as a WAV mask
    /// (its bits are the same speakers), descriptions by their labels, and the layout tags of
    /// up to 8 channels by the labels Core Audio gives them (but MPEG_7_1_C as aupipe and ffmpeg
    /// write it: the WAV 7.1). Nil for a tag not known here, or
    /// one for another channel count.
    public init?(cafChan b: [UInt8], channels: Int) {
        func u32(_ at: Int) -> UInt32 { b[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        guard b.count >= 12 else { return nil }
        let tag = u32(0)
        switch tag {
        case CAFFile.useChannelBitmap:
            self.init(wavMask: u32(4), channels: channels)
        case 0: // kAudioChannelLayoutTag_UseChannelDescriptions
            let count = Int(u32(8))
            guard count == channels, b.count >= 12 + 20 * count else { return nil }
            let table = ChannelLayout.coreAudioSpeakers
            self.init(speakers: (0..<count).map { i -> Speaker in
                let at = 12 + 20 * i
                let label = u32(at), flags = u32(at + 4)
                // kAudioChannelLabel_UseCoordinates with kAudioChannelFlags_SphericalCoordinates.
                if label == 100, flags & 2 != 0 {
                    let azimuth = Double(Float(bitPattern: u32(at + 8))), elevation = Double(Float(bitPattern: u32(at + 12)))
                    // Core Audio's azimuth grows to the right; this type's to the left.
                    return .direction(azimuth: -azimuth, elevation: elevation)
                }
                return table[label] ?? .unknown
            })
        case Self.mpeg71C where channels == 8:
            // aupipe writes 7.1 as this tag (CAFFile.defaultLayout), and ffmpeg before 7.0 writes
            // and reads it, as the 7.1 of the WAV mask: FL FR FC LFE BL BR SL SR. Core Audio's
            // L R C LFE Ls Rs Rls Rrs would put the side pair first; the files say otherwise.
            self.init(wavMask: WAVFile.defaultMask(channels: 8), channels: 8)
        default:
            guard Int(tag & 0xFFFF) == channels, let labels = Self.coreAudioTags[tag >> 16] else { return nil }
            self.init(speakers: labels.map { Self.coreAudioSpeakers[$0] ?? .unknown })
        }
    }

    // MARK: tables

    /// The WAV mask's side pair, SL and SR (bits 9 and 10).
    package static let sidePair: UInt32 = 0x600

    /// kAudioChannelLayoutTag_MPEG_7_1_C.
    package static let mpeg71C: UInt32 = 128 << 16 | 8

    private static func at(_ azimuth: Double, _ elevation: Double = 0) -> Speaker { .direction(azimuth: azimuth, elevation: elevation) }

    /// The WAV mask's 18 speakers in bit order, at the positions ITU-R BS.2051 gives them: FL
    /// FR FC LFE BL BR FLC FRC BC SL SR TC TFL TFC TFR TBL TBC TBR. Back left and right are
    /// rear speakers (135°; at 110° in a mask without SL and SR, see `init(wavMask:channels:)`),
    /// side left and right at 90°; the top ones 45° up (TC overhead).
    package static let wavSpeakers: [Speaker] = [
        at(30), at(-30), at(0), .lowFrequency, at(135), at(-135), at(15), at(-15), at(180), at(90), at(-90),
        at(0, 90), at(30, 45), at(0, 45), at(-30, 45), at(135, 45), at(180, 45), at(-135, 45),
    ]

    /// Core Audio channel labels (kAudioChannelLabel_*) and their places: Left, Right, Center,
    /// LFEScreen, LeftSurround and RightSurround (the surrounds of 5.1, 110°), LeftCenter,
    /// RightCenter, CenterSurround, LeftSurroundDirect, RightSurroundDirect, TopCenterSurround,
    /// VerticalHeight L/C/R, TopBack L/C/R, RearSurroundLeft/Right (135°), LeftWide/RightWide
    /// (60°), LFE2, LeftTotal/RightTotal, Mono.
    package static let coreAudioSpeakers: [UInt32: Speaker] = [
        1: at(30), 2: at(-30), 3: at(0), 4: .lowFrequency, 5: at(110), 6: at(-110), 7: at(15), 8: at(-15), 9: at(180),
        10: at(90), 11: at(-90), 12: at(0, 90), 13: at(30, 45), 14: at(0, 45), 15: at(-30, 45), 16: at(135, 45), 17: at(180, 45),
        18: at(-135, 45), 33: at(135), 34: at(-135), 35: at(60), 36: at(-60), 37: .lowFrequency, 38: at(30), 39: at(-30), 42: at(0),
    ]

    /// Layout tags (kAudioChannelLayoutTag_*, the high 16 bits) of 1 to 8 channels and their
    /// labels in channel order, as Core Audio lists them.
    package static let coreAudioTags: [UInt32: [UInt32]] = {
        let L: UInt32 = 1, R: UInt32 = 2, C: UInt32 = 3, LFE: UInt32 = 4, Ls: UInt32 = 5, Rs: UInt32 = 6, Lc: UInt32 = 7,
            Rc: UInt32 = 8, Cs: UInt32 = 9, Rls: UInt32 = 33, Rrs: UInt32 = 34, Lt: UInt32 = 38, Rt: UInt32 = 39
        return [
            100: [C], 101: [L, R], 102: [L, R], 103: [Lt, Rt], 106: [L, R],
            108: [L, R, Ls, Rs], 109: [L, R, Rls, Rrs, C], 110: [L, R, Rls, Rrs, C, Cs],
            113: [L, R, C], 114: [C, L, R], 115: [L, R, C, Cs], 116: [C, L, R, Cs],
            117: [L, R, C, Ls, Rs], 118: [L, R, Ls, Rs, C], 119: [L, C, R, Ls, Rs], 120: [C, L, R, Ls, Rs],
            121: [L, R, C, LFE, Ls, Rs], 122: [L, R, Ls, Rs, C, LFE], 123: [L, C, R, Ls, Rs, LFE], 124: [C, L, R, Ls, Rs, LFE],
            125: [L, R, C, LFE, Ls, Rs, Cs], 126: [L, R, C, LFE, Ls, Rs, Lc, Rc], 127: [C, Lc, Rc, L, R, Ls, Rs, LFE],
            129: [L, R, Ls, Rs, C, LFE, Lc, Rc], 130: [L, R, C, LFE, Ls, Rs, Lt, Rt],
            131: [L, R, Cs], 132: [L, R, Ls, Rs],
            139: [L, R, Ls, Rs, C, Cs], 140: [L, R, Ls, Rs, C, Rls, Rrs], 141: [C, L, R, Ls, Rs, Cs],
            142: [C, L, R, Ls, Rs, Cs, LFE], 143: [C, L, R, Ls, Rs, Rls, Rrs],
        ]
    }()
}
