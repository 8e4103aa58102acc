import AUPipeFormats
import AUPipeGraph

/// The columns of a spectrogram, in a store of fixed size: per column, per channel, per row,
/// the summed power of the DFT frames whose centre fell in it, and how many there were.
///
/// Column `c` covers stream frames `c × hop ..< (c + 1) × hop`. When a frame falls beyond the
/// last column, neighbouring columns are merged in pairs (powers summed, counts summed: the
/// mean power of the pair) and `hop` doubles: an hour of audio is held in the same
/// `capacity` columns as a minute, between `capacity / 2` and `capacity` of them in use.
/// Everything is allocated in `init` (merging allocates nothing).
package final class SpectrogramColumns {
    /// Columns held at most (even), channels, rows per channel.
    package let capacity: Int, channels: Int, rows: Int
    /// Stream frames per column (a power of two; doubles at each merge).
    package private(set) var hop: Int
    /// Columns in use (the last one may be part-filled).
    package private(set) var count = 0
    /// capacity × channels × rows summed powers, column by column.
    private let power: UnsafeMutablePointer<Float>
    /// Frames summed into each column.
    private let frames: UnsafeMutablePointer<Int32>

    package init(capacity: Int, channels: Int, rows: Int, hop: Int) {
        self.capacity = max(2, capacity & ~1)
        self.channels = channels
        self.rows = rows
        self.hop = hop
        power = .allocate(capacity: self.capacity * channels * rows)
        power.initialize(repeating: 0, count: self.capacity * channels * rows)
        frames = .allocate(capacity: self.capacity)
        frames.initialize(repeating: 0, count: self.capacity)
    }

    deinit {
        power.deallocate()
        frames.deallocate()
    }

    /// The column of a frame centred at stream frame `centre`, merging until it fits.
    package func column(for centre: Int64) -> Int {
        while centre / Int64(hop) >= Int64(capacity) { mergePairs() }
        return Int(centre / Int64(hop))
    }

    /// Adds one frame's row powers of `channel` to column `c`; `last` counts the frame (give
    /// it with the last channel).
    package func add(_ rowPower: UnsafePointer<Float>, column c: Int, channel: Int, last: Bool) {
        let base = (c * channels + channel) * rows
        for r in 0..<rows { power[base + r] += rowPower[r] }
        if last {
            frames[c] += 1
            count = max(count, c + 1)
        }
    }

    /// The mean power of `column`, `channel`, `row`; 0 for a column no frame fell in.
    package func meanPower(column c: Int, channel: Int, row: Int) -> Float {
        let n = frames[c]
        return n > 0 ? power[(c * channels + channel) * rows + row] / Float(n) : 0
    }

    /// Halves the columns: each pair becomes one covering both.
    private func mergePairs() {
        let stride = channels * rows
        for i in 0..<capacity / 2 {
            let a = 2 * i * stride, b = a + stride, to = i * stride
            for k in 0..<stride { power[to + k] = power[a + k] + power[b + k] }
        }
        (power + capacity / 2 * stride).update(repeating: 0, count: capacity / 2 * stride)
        for i in 0..<capacity / 2 { frames[i] = frames[2 * i] + frames[2 * i + 1] }
        for i in capacity / 2..<capacity { frames[i] = 0 }
        count = (count + 1) / 2
        hop *= 2
    }
}
