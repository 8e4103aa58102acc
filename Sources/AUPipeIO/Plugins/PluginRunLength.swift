import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// How many frames a plugin is given on every run: one length for the whole run, chosen from the
/// stream's rate and the plugin's own limits, never from `--block` or from how the input's reads
/// fall. A plugin's output may depend on where its runs begin (a limiter's envelope, a
/// convolver's partitions), so runs cut from the stream at fixed places are what keeps the
/// block size and a pipe's chunking from changing the output bytes.
///
/// The choice, in order:
/// 1. the plugin's `nominalBlockLength` if it states one that its other limits allow;
/// 2. else `preferred(atRate:)` (the smallest power of two holding 10 ms: 512 frames at 44.1 and
///    48 kHz), moved into the plugin's `minimumBlockLength...maximumBlockLength`;
/// 3. a power of two in that range where there is one (the nearest above, else below): hosts
///    run plugins on power-of-two blocks, and some plugins refuse any other length without
///    saying so in their data (convoLV2); where the plugin requires a power of two
///    (`needsPowerOf2BlockLength`) and the range holds none, it cannot run.
public enum PluginRunLength {
    /// The longest run aupipe gives a plugin (frames): a plugin that needs longer runs is refused.
    public static let largest = 65536

    /// The run length without a plugin's limits: the smallest power of two holding 10 ms at
    /// `rate` (frames per second), 64...8192.
    public static func preferred(atRate rate: Double) -> Int {
        let tenMs = Int((max(1, rate) / 100).rounded(.up))
        var n = 64
        while n < tenMs, n < 8192 { n <<= 1 }
        return n
    }

    /// The frames of every run of `plugin` at `rate`. Throws `.unavailable` (69) naming the
    /// limits when no length meets them.
    public static func frames(for plugin: PluginInfo, atRate rate: Double, unitName: String) throws -> Int {
        let lo = plugin.minimumBlockLength ?? 1
        let hi = min(plugin.maximumBlockLength ?? largest, largest)
        let stated = "bufsz:minBlockLength \(plugin.minimumBlockLength.map(String.init) ?? "unstated"), "
            + "bufsz:maxBlockLength \(plugin.maximumBlockLength.map(String.init) ?? "unstated")"
        guard lo <= hi else {
            let why = lo > largest ? "runs of at least \(lo) frames, more than aupipe's \(largest)" : "runs of \(lo) to \(hi) frames, which no length meets"
            throw AUPipeError(.unavailable, "\(unitName): \(plugin.identifier) needs \(why) (\(stated)); use another plugin")
        }
        if let nominal = plugin.nominalBlockLength, nominal >= lo, nominal <= hi,
           isPowerOf2(nominal) || !plugin.needsPowerOf2BlockLength {
            return nominal
        }
        let wanted = min(max(preferred(atRate: rate), lo), hi)
        if isPowerOf2(wanted) { return wanted }
        var up = 1
        while up < wanted { up <<= 1 }
        if up <= hi { return up }
        if up / 2 >= lo { return up / 2 }
        guard !plugin.needsPowerOf2BlockLength else {
            throw AUPipeError(.unavailable, "\(unitName): \(plugin.identifier) needs power-of-two runs of \(lo) to \(hi) frames, "
                              + "and no power of two lies there (\(stated)); use another plugin")
        }
        return wanted
    }

    package static func isPowerOf2(_ n: Int) -> Bool { n > 0 && n & (n - 1) == 0 }
}
