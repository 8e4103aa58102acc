extension ManualText {
    /// CONTAINERS.
    package static let containers = #"""
        .SH CONTAINERS
        The input's container is recognised from its first four bytes, never by
        seeking:
        .B caff
        is CAF,
        .B RIFF
        or
        .B RF64
        followed by
        .B WAVE
        is WAV (including WAVE_FORMAT_EXTENSIBLE), and
        .B .snd
        is Sun AU.
        FLAC
        .RB ( fLaC ),
        Ogg
        .RB ( OggS :
        Opus, Vorbis, FLAC in Ogg),
        MP3 (an ID3 tag, or an MPEG audio frame header), AAC in ADTS and Sony Wave64
        .RB ( riff
        and the Wave64 GUID) are refused with status 65 and a hint to decode them
        first, as in
        .BR "ffmpeg \-v error \-i in.flac \-f caf \- | aupipe ..." ,
        also when
        .B \-\-in\-format
        is given, except after a bare MPEG or ADTS frame header, which raw PCM can
        also start with.
        Anything else is raw PCM if
        .B \-\-in\-format
        is given, and an error (status 65) otherwise.
        Chunks that are not needed are skipped by reading them.
        Reading stops where the header's data size ends; bytes after it are not read.
        .PP
        These declared data sizes mean
        .I read to the end of the stream
        rather than a length: in WAV and AU 0, 0x7FFFF000, 0x7FFFFFFF, 0x80000000,
        0xFFFFFFFE and 0xFFFFFFFF; in WAV also 0x7FFFF000 rounded down to a whole
        number of frames, as sox writes it (0x7FFFEFFC for 6\- and 12\-byte frames);
        and in CAF \-1.
        A WAV data size of 0 is also a true empty data chunk: when the 8 bytes after
        it are a chunk header (four printable ASCII characters, the first a letter or
        digit, and a size that fits in what a regular file has left, as a
        .B LIST
        chunk written after an empty
        .B data
        chunk), the stream has 0 frames, as sox reads it; when they are anything
        else, they are audio, read to the end (as arecord's streaming header means
        it), on a pipe and in a file alike.
        The RIFF size of a WAV file is ignored; an RF64 file whose data chunk says
        0xFFFFFFFF takes its data size from its
        .B ds64
        chunk.
        .PP
        What the reader takes:
        .TP
        CAF
        Version 1;
        .B desc
        first, then any chunks, then
        .BR data .
        Packed
        .B lpcm
        (signed integers of 8, 16, 24 or 32 bits, or floats of 32 or 64 bits, in either
        byte order),
        .B ulaw
        and
        .BR alaw ,
        one frame per packet, a whole number of Hz.
        Other formats are refused with a hint to decode them with ffmpeg.
        .TP
        WAV
        Format tags 1 (PCM: 8\-bit unsigned, wider signed), 3 (float), 6 (A\-law),
        7 (\(*m\-law) and 0xFFFE (extensible, with a standard PCM, float or G.711
        sub\-format GUID).
        The sample width is the container width, blockAlign divided by the channel
        count.
        24 bits in 4\-byte containers without the extensible header (ALSA's S24_LE) is
        refused.
        .TP
        AU
        Encodings 1 (\(*m\-law), 2 (s8), 3 (s16be), 4 (s24be), 5 (s32be),
        6 (f32be), 7 (f64be) and 27 (A\-law); a data offset from 24 to 16777216.
        .PP
        What the writer emits, with streaming sizes while it writes:
        .TP
        CAF
        .BR caff ,
        a
        .B desc
        chunk, a
        .B chan
        chunk when there is a layout to give, and a
        .B data
        chunk of size \-1, followed by its edit count 0.
        Nothing else: no
        .BR info ,
        .B free
        or other chunks, since ffmpeg cannot skip them on a pipe.
        In
        .BR desc ,
        flag bit 0 means float and bit 1 little\-endian.
        The
        .B chan
        chunk is the input's when the input is CAF with the same channel count, and
        otherwise, for 1 to 8 channels, the speakers of the WAV writer's default
        channel mask (below), so that ffmpeg reads the same layout from either
        container: the Core Audio layout tags Mono, Stereo, MPEG_3_0_A (3.0),
        Quadraphonic (quad) and MPEG_7_1_C (7.1), and for 5, 6 (5.1) and 7 channels
        the mask itself as a channel bitmap (ffmpeg reads the tag MPEG_5_1_A as
        5.1(side)).
        More channels get none.
        .TP
        WAV
        .B RIFF
        and
        .B data
        sizes 0xFFFFFFFF.
        More than two channels, or integers of 24 or 32 bits, use
        WAVE_FORMAT_EXTENSIBLE (a 40\-byte
        .B fmt
        chunk, a 68\-byte header) with the input's channel mask when the input had one
        and the channel count is unchanged, and otherwise the mask for mono (0x4),
        stereo (0x3), quad (0x33), 5.1 (0x3F) or 7.1 (0x63F), or the lowest
        .I N
        bits for other counts below 32.
        Everything else has a plain header: tag 1 for integers of 8 or 16 bits, with a
        16\-byte
        .B fmt
        chunk (44 bytes in all), or tag 3 for floats and 6 or 7 for G.711, with an
        18\-byte
        .B fmt
        chunk that ends in cbSize 0 (46 bytes; without it sox warns of a
        .IR "missing extended part of fmt chunk" ).
        .TP
        AU
        A 28\-byte header: the 24 bytes of fields, data offset 28 and size
        0xFFFFFFFF, then 4 bytes of empty annotation.
        .TP
        raw
        The samples alone.
        .PP
        Only when the output is a regular file are the sizes patched at the end: WAV's
        RIFF and data sizes (and a pad byte after odd\-sized data), AU's data size and
        CAF's data chunk size.
        A size that does not fit in 32 bits stays 0xFFFFFFFF in WAV and AU, and so
        does an AU size that would read as
        .I to the end
        (such as 0).
        .PP
        Which encoding the output gets: an encoding given explicitly, by
        .B \-\-out\-format
        or by
        .BR "convert format=" ,
        is written as it is, and an error (status 64) if the container cannot hold it.
        Otherwise the chain's encoding, inherited from the input, is moved to the
        nearest one the container holds:
        .TP
        WAV
        little\-endian; 8\-bit integers become
        .BR u8 ,
        unsigned wider ones signed (s16be becomes s16le).
        .TP
        AU
        big\-endian; 8\-bit integers become
        .BR s8 ,
        unsigned wider ones signed (u8 becomes s8, f32le becomes f32be).
        .TP
        CAF
        unsigned integers become signed of the same width and order.
        .TP
        raw
        anything, unchanged.
        """#
}
