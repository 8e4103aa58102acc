import Testing
import AUPipeKit

/// Control lines on figures a unit reports but does not take (a plugin's output ports,
/// `meter`'s readings): `set` says they are read-only and how to read them; `get` of a name
/// the unit has not lists the figures it can read.
@Suite struct ControlFigureTests {
    @Test func settingAPluginsOutputPortSaysItIsReadOnly() throws {
        let registry = PluginUnitTests.registry(PluginUnitTests.FakeBackend())
        let pipeline = try Pipeline(chain: [["lv2", "delay", "name=lim"]], options: PipelineOptions(), registry: registry)
        #expect(pipeline.control("set lim.peak 3") == "error: lim.peak is read-only: a figure lv2 reports, not a parameter; read it with get lim.peak")
        #expect(pipeline.control("set lv2.LATENCY 3") == "error: lv2.LATENCY is read-only: a figure lv2 reports, not a parameter; read it with get lv2.LATENCY")
        // Before the audio the plugin has reported nothing.
        #expect(pipeline.control("get lim.peak") == "error: lim.peak has no value to report yet")
        #expect(pipeline.control("get lim.nothing") == "error: lv2 has no parameter or figure 'nothing'; get reads its figures latency, peak and its live parameters gain")
        // A near parameter name still gets the parameter's did-you-mean.
        #expect(pipeline.control("set lim.gian 1") == "error: lv2 has no parameter 'gian'; did you mean 'gain'?")
    }

    @Test func getOfAnUnknownNameListsTheMetersFigures() throws {
        let pipeline = try Pipeline(chain: [["meter"]], options: PipelineOptions(), registry: UnitRegistry(providers: [BuiltInUnits()]))
        #expect(pipeline.control("get meter.foo")
                == "error: meter has no parameter or figure 'foo'; get reads its figures integrated, momentary, shortterm, range, truepeak, peak, rms")
        #expect(pipeline.control("get meter.peek")
                == "error: meter has no parameter or figure 'peek'; did you mean 'peak'? (get reads its figures integrated, momentary, shortterm, range, truepeak, peak, rms)")
        #expect(pipeline.control("set meter.integrated -23") == "error: meter.integrated is read-only: a figure meter reports, not a parameter; read it with get meter.integrated")
        #expect(pipeline.control("get meter.integrated") == "meter.integrated -inf")
    }
}
