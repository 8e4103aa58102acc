import CAUPipeSupport

/// One LV2 plugin instance, with its features and atom buffers (`aupipe_lv2_instance` in C,
/// where `run` stays: it resets the atom buffers, runs the plugin and delivers the worker's
/// responses, allocating nothing).
final class LV2Instance: PluginInstance {
    private let instance: OpaquePointer

    init(_ instance: OpaquePointer) {
        self.instance = instance
    }

    deinit {
        aupipe_lv2_instance_free(instance)
    }

    func connect(port index: UInt32, to data: UnsafeMutablePointer<Float>) {
        aupipe_lv2_connect(instance, index, data)
    }

    func activate() {
        aupipe_lv2_activate(instance)
    }

    func run(frames: Int) {
        aupipe_lv2_run(instance, UInt32(truncatingIfNeeded: frames))
    }

    func deactivate() {
        aupipe_lv2_deactivate(instance)
    }
}
