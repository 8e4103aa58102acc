import AUPipeFormats

extension LiveSetting {
    /// The manual's paragraph for a unit's `live=` (roff, from `.BI live= MODE` on): one wording of
    /// the rule every side stream follows (`RealTimePolicy`), with what the unit's stream is
    /// (`what`) and what `on` and `off` make of it (each a whole phrase, roff allowed).
    package static func manual(what: String, on: String, off: String) -> String {
        """
        .BI live= MODE
        \(what): one of
        .BR auto ,
        .B on
        or
        .BR off .
        Default
        .BR auto :
        as the run (real time with
        .B \\-\\-capture
        or
        .BR \\-\\-live ).
        .B on
        \(on)
        .B off
        \(off)
        """
    }
}
