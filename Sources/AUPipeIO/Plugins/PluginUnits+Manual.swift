import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

extension PluginUnits {
    /// The ladspa section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let ladspaManual = #"""
        Runs an installed LADSPA plugin:
        .B ladspa
        .IR LABEL | LIBRARY : LABEL | ID
        .RI [ port = value ]...
        The first argument names the plugin: its label
        .RB ( amp_mono ),
        .IR library : label
        .RB ( amp:amp_mono ,
        always unique), its unique ID
        .RB ( 1048 ),
        its name, or any part of its identifier or name that only it has, in any
        case.
        The other arguments set its input control ports by symbol: the port's name in
        lowercase, every other character as
        .BR _ ,
        runs of
        .B _
        collapsed and trimmed ("Gain" is
        .BR gain ,
        "Delay (Seconds)" is
        .BR delay_seconds ;
        a symbol that starts with a digit gets a leading
        .BR _ ,
        a repeated one
        .BR _2 ,
        and a port named "Name" is
        .BR name_port ,
        since
        .BI name= LABEL
        labels the unit).
        Values are range\-checked against the port's bounds (64), and a port without
        an upper or lower bound still takes no value beyond a 32\-bit float's range
        (about 3.4e38 either way: the port holds a float); bounds the plugin
        gives as fractions of the sample rate
        .RB ( HINT_SAMPLE_RATE )
        are multiplied by the stream's rate and checked once it is known, before any
        audio.
        A port not given takes the plugin's default hint (minimum, low, middle, high,
        maximum, 0, 1, 100 or 440), else 0 moved into its range.
        Plugins are looked for in the directories of
        .BR LADSPA_PATH ,
        else in
        .BR /usr/lib/ladspa ,
        .B /usr/local/lib/ladspa
        and
        .BR /usr/lib/x86_64\-linux\-gnu/ladspa
        (the multiarch directory of the build); a library found twice is taken from
        the first directory.
        A plugin named
        .IR library : label
        is found by opening that library only; any other name makes aupipe open every
        library of the search path once (about 15 ms for Debian's 120).
        No library is needed beyond the plugins: aupipe declares LADSPA's structures
        itself and loads each plugin library with
        .BR dlopen (3).
        An output control port named
        .B latency
        is the plugin's latency, and is compensated.
        Channels, blocks, latency, live ports and statistics are as
        .B PLUGINS
        describes.
        .B aupipe help ladspa
        .I LABEL
        lists a plugin's ports.
        """#
    /// The lv2 section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let lv2Manual = #"""
        Runs an installed LV2 plugin:
        .B lv2
        .IR URI | NAME
        .RI [ symbol = value ]...\&
        .RI [ preset = NAME ]
        The first argument names the plugin: its URI
        .RB ( http://lv2plug.in/plugins/eg\-amp ),
        or any part of its URI or name that only it has, in any case
        .RB ( eg\-amp ,
        .BR dpl#stereo ).
        The other arguments set its input control ports by their
        .B lv2:symbol
        (a port whose symbol is
        .B name
        is
        .BR name_port ,
        since
        .BI name= LABEL
        labels the unit, and on a plugin with presets one whose symbol is
        .B preset
        is
        .BR preset_port );
        .B preset=
        loads one of the plugin's presets first, and ports given on the command line
        override it.
        A preset that carries plugin state
        .RB ( state:state :
        x42 zeroconvolv's impulse response file) has it restored into every instance
        before the audio, through lilv's state API (lilv's state:mapPath and
        state:freePath find the files it names from the preset's bundle; work the
        plugin schedules while restoring is done first); a preset whose plugin has no
        .B state:interface
        to restore it is refused in one line naming why (69).
        Values are range\-checked against the port's bounds (64), and never beyond a
        32\-bit float's range, as for
        .BR ladspa ;
        bounds marked
        .B lv2:sampleRate
        (swh's filter cutoffs, 0.0001...0.45) and their defaults are multiplied by the
        stream's rate and checked once it is known, before any audio.
        A port not given takes the plugin's default, else 0 moved into its range.
        Plugins are found by liblilv on
        .BR LV2_PATH ;
        lilv is loaded with
        .BR dlopen (3)
        when a chain, help or
        .B aupipe plugins
        first needs it
        .RB ( AUPIPE_LILV_LIBRARY
        names another library file; without lilv, one line names the package and the
        status is 69).
        Messages a plugin logs (log:log) go to stderr as
        .BI "aupipe: lv2 " URI ": "
        lines, errors and warnings only unless
        .B AUPIPE_LV2_LOG=1
        is set.
        What lilv says about installed bundles it cannot read (Turtle that does not
        parse) is kept off stderr, so one broken bundle does not add lines to every
        run;
        .B aupipe plugins
        says in one line that bundles were skipped and quotes the first error, and
        .B AUPIPE_LV2_LOG=1
        lets lilv's own messages through.
        Channels, blocks, latency, live ports and statistics are as
        .B PLUGINS
        describes.
        .B aupipe help lv2
        .I URI
        lists a plugin's ports, presets and output ports.
        """#
}
