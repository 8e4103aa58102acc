import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
import CAUPipeSupport

/// One LV2 plugin instance, with its features and atom buffers (`aupipe_lv2_instance` in C,
/// where `run` stays: it resets the atom buffers, runs the plugin and delivers the worker's
/// responses, allocating nothing).
package final class LV2Instance: PluginInstance {
    private let instance: OpaquePointer
    /// The world it was made in (presets' state is read from it) and the plugin's URI.
    private let world: LV2World
    private let uri: String

    package init(_ instance: OpaquePointer, world: LV2World, uri: String) {
        self.instance = instance
        self.world = world
        self.uri = uri
    }

    deinit {
        aupipe_lv2_instance_free(instance)
    }

    package func connect(port index: UInt32, to data: UnsafeMutablePointer<Float>) {
        aupipe_lv2_connect(instance, index, data)
    }

    package func activate() {
        aupipe_lv2_activate(instance)
    }

    /// lilv's state restore, with the state:mapPath and freePath it provides (the preset's
    /// files found from its bundle) and the instance's features; work it schedules (loading a
    /// file) is done before this returns.
    package func restore(_ state: PluginState) throws {
        var error = [CChar](repeating: 0, count: 512)
        let status = error.withUnsafeMutableBufferPointer { buffer in
            aupipe_lv2_restore(world.pointer, instance, state.preset.uri, buffer.baseAddress, buffer.count)
        }
        guard status == 0 else {
            let why = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw AUPipeError(.unavailable, "lv2 \(uri): preset '\(state.preset.name)' carries plugin state that cannot be restored: \(why); "
                              + "use another preset, or set the ports by hand")
        }
    }

    package func run(frames: Int) {
        aupipe_lv2_run(instance, UInt32(truncatingIfNeeded: frames))
    }

    package func deactivate() {
        aupipe_lv2_deactivate(instance)
    }
}
