extension ManualText {
    /// PLUGINS.
    package static let plugins = #"""
        .SH PLUGINS
        The units
        .B lv2
        and
        .B ladspa
        run the plugins Linux distributions ship (Debian: lv2\-examples, x42\-plugins,
        swh\-lv2, lsp\-plugins\-lv2, ladspa\-sdk, swh\-plugins, tap\-plugins and
        more), as AUGraph hosts third\-party AudioUnits on iOS.
        The two standards differ in how plugins are found and described; the host
        around them is the same.
        .PP
        .B lv2
        .IR URI | NAME
        .RI [ symbol = value ]...\&
        .RI [ preset = NAME ]
        names the plugin by its URI or any part of its URI or name that only it has,
        and sets input control ports by their
        .BR lv2:symbol .
        A plugin named by a URI or a word loads its own bundles only (its own, and
        those holding its data and presets), found through an index of the installed
        plugins that aupipe keeps in
        .I $XDG_CACHE_HOME/aupipe
        (default
        .IR ~/.cache/aupipe ),
        one file per
        .BR LV2_PATH :
        each plugin's URI, name and bundles.
        The index is written when every plugin has been read (the first lookup by a
        word,
        .BR "aupipe plugins" )
        and used only while the search path's directories, its bundles and their
        .I manifest.ttl
        files keep their modification times; installing, removing or upgrading a
        bundle makes the next lookup read every bundle again and rewrite it.
        Without an index that holds (or a cache directory that can be written), a
        word needs every installed plugin's name and a URI every bundle's manifest,
        which takes longer (tens of milliseconds for Debian's 231 plugins) and gives
        the same result.
        .B preset=
        loads one of the plugin's presets first (its port values, and the plugin
        state it carries, restored into every instance); ports given on the command
        line override it.
        LV2 is reached through liblilv, loaded at run time (Debian: liblilv\-0\-0), so
        aupipe builds and runs without it; using an LV2 plugin without it is one line
        naming the package, status 69.
        lilv finds plugins on
        .B LV2_PATH
        (default: ~/.lv2, /usr/local/lib/lv2, /usr/lib/lv2).
        aupipe provides the host features urid:map and unmap, options (sample rate,
        block lengths), log, bufsz and the worker (run synchronously), and restores
        the plugin state a preset carries through the plugin's state:interface (with
        lilv's state:mapPath and state:freePath); a plugin that requires another
        feature is refused naming it (69).
        .PP
        Discovery is lazy: a run whose chain has no plugin unit scans nothing, and
        .B aupipe units
        lists the two units without scanning.
        An unknown plugin name gets a did\-you\-mean (among LADSPA labels, LV2 URIs and
        the last segment of each, such as
        .B eg\-amp
        or
        .BR dpl#mono ,
        and names), a name several plugins match
        gets the candidates; both are usage errors (64).
        A port of a type aupipe does not serve (a CV port, for instance) that the
        plugin cannot do without is refused before audio (69).
        .PP
        .B Channels.
        A plugin whose audio inputs and outputs both number the stream's channels
        runs as one instance (a stereo plugin on a stereo stream); a mono plugin (one
        input, one output) on N channels runs as N instances, one per channel, each
        seeing only its own; any other count is refused before audio, naming the
        counts expected and found (64).
        .PP
        .B Blocks.
        Audio is split into one plane per channel, run, and interleaved back;
        every buffer is allocated before the audio and input and output buffers are
        never the same, so plugins that cannot work in place are served.
        Every plugin is run on one length for the whole stream, whatever
        .B \-\-block
        and however a pipe delivers the input: the stream is gathered into runs of
        that length and the last one padded with zeros whose output is dropped, so the
        length stays exact and the block size never changes the output bytes (a
        limiter's envelope, a convolver's partitions follow where runs begin).
        The length is the plugin's
        .B bufsz:nominalBlockLength
        if it states one its other limits allow, else the smallest power of two
        holding 10 ms (512 frames at 44.1 and 48 kHz, 64 to 8192), moved into the
        .BR bufsz:minBlockLength ... bufsz:maxBlockLength
        the plugin states, and a power of two wherever that range holds one (hosts
        run plugins on powers of two, and some refuse any other length without
        saying so).
        The plugin is told the length as its minimum, maximum and nominal, with
        .BR bufsz:fixedBlockLength ,
        .B bufsz:coarseBlockLength
        and, for a power of two,
        .BR bufsz:powerOf2BlockLength .
        Limits no length meets (a minimum above the maximum or above 65536 frames, or
        .B bufsz:powerOf2BlockLength
        required where the range holds no power of two) are refused before audio,
        naming them, and a plugin that refuses to instantiate is refused with what it
        logged as its reason; both are one line with status 69.
        \-\-stats
        shows the run length
        .RB ( "runs of 512 frames" ).
        In a live stream a plugin holds back up to one run's frames before its output
        comes.
        .PP
        .B Latency.
        A plugin's reported latency (the
        .B lv2:latency
        port, a LADSPA output control port named
        .BR latency )
        is read after its first run and compensated: the first L output frames are
        dropped and L frames of tail flushed by running zeros at the end, so the
        output has exactly the input's frames and an impulse on frame k comes out on
        frame k.
        A fraction is rounded to whole frames; a first value that is not a number,
        negative, or more than 10 seconds of frames ends the run with status 70
        naming the value (such a plugin is faulty).
        A different value reported later is shown by
        .B \-\-stats
        and not applied.
        .PP
        .B Faulty samples.
        A NaN or infinite sample a plugin outputs is replaced by 0 on its way out
        (it would spread through every unit after it, and into a float output): one
        warning line names the plugin and the stream time of the first,
        .B \-\-stats
        counts them (JSON figure
        .BR nonFiniteReplaced ).
        .PP
        .B Stray output.
        What a plugin prints on standard output (x42's convolvers describe the
        impulse response they load) is moved to standard error after every call into
        the plugin, so that it never lands in the audio.
        .PP
        .B Live.
        Every input control port is a live parameter:
        .B set ladspa.gain 0.5
        (or
        .B set lv2.gain \-12 ,
        or through a
        .B name=
        label) is range\-checked and written before the plugin's next run, so it
        applies from a run boundary.
        Output control ports (a limiter's gain reduction, a meter) are read with
        .B get
        .IB UNIT . SYMBOL
        (one value per instance, comma\-separated) and printed by
        .B \-\-stats
        after the plugin's line, with the latency compensated;
        .B \-\-stats=json
        gives each as a figure named by its
        .I symbol
        whose value is an array with one number per instance, in channel order (one
        element for a plugin run once, N for a mono plugin on N channels), so that the
        key and the shape are the same on mono and stereo streams:
        .B jq \(aq.units[0].figures.level[0]\(aq
        reads the first instance's, and
        .B latency
        and
        .B nonFiniteReplaced
        are plain numbers.
        The same input and arguments give the same bytes on every run when the
        plugin is deterministic.
        """#
}
