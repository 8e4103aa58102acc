extension ManualText {
    /// SEE ALSO.
    package static let seeAlso = #"""
        .SH SEE ALSO
        .BR sox (1),
        .BR ffmpeg (1),
        .BR arecord (1),
        .BR flac (1),
        .BR opusenc (1),
        .BR lame (1)
        """#
}
