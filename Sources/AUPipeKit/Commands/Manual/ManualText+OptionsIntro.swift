extension ManualText {
    /// The OPTIONS heading and what holds for every option; the options follow from `RunOption.all`.
    package static let optionsIntro = #"""
        .SH OPTIONS
        A long option takes its value as the next word or after
        .BR = ;
        a short option takes it as the next word only.
        An unknown option is an error (status 64) that suggests the nearest valid one.
        A path (of
        .BR \-i ,
        .BR \-o ,
        .BR \-\-control ,
        .BR \-\-control\-reply ,
        .BR tee ,
        .BR "mix input=" ,
        .BR "aec ref=" ,
        .BR plot= ,
        .BR "meter to=" )
        is the bytes given, whether or not they are UTF\-8: a name such as
        .B $\(aqin\exff.wav\(aq
        is opened as it is, and messages name it with the same bytes (JSON shows
        U+FFFD for a byte that is not UTF\-8).
        """#
}
