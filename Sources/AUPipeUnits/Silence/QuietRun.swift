/// The frames of one quiet run that may still be written: its first `headCapacity` frames, and
/// its last `tailCapacity` frames in a ring. The frames between are only counted, so a silence
/// of any length takes (headCapacity + tailCapacity) frames of memory, allocated once.
struct QuietRun {
    let channels: Int
    let headCapacity: Int
    let tailCapacity: Int
    private let head: UnsafeMutablePointer<Float>
    private let tail: UnsafeMutablePointer<Float>
    /// Frames of the run so far.
    private(set) var length: Int64 = 0
    /// The input frame where the run started.
    private(set) var start: Int64 = 0

    init(channels: Int, headCapacity: Int, tailCapacity: Int) {
        self.channels = channels
        self.headCapacity = headCapacity
        self.tailCapacity = max(1, tailCapacity)
        head = .allocate(capacity: max(1, headCapacity) * channels)
        tail = .allocate(capacity: self.tailCapacity * channels)
    }

    func deallocate() { head.deallocate(); tail.deallocate() }

    mutating func begin(at frame: Int64) { start = frame; length = 0 }

    mutating func append(_ frame: UnsafePointer<Float>) {
        if length < Int64(headCapacity) { (head + Int(length) * channels).update(from: frame, count: channels) }
        (tail + Int(length % Int64(tailCapacity)) * channels).update(from: frame, count: channels)
        length += 1
    }

    /// Copies frames `from..<from+count` of the run to `output`: the first `headCapacity` or
    /// the last `tailCapacity` frames only.
    func copy(from: Int64, count: Int, to output: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            let n = from + Int64(i)
            let source: UnsafeMutablePointer<Float>
            if n < Int64(headCapacity) {
                source = head + Int(n) * channels
            } else {
                precondition(n >= length - Int64(tailCapacity), "quiet run: frame \(n) of \(length) is no longer stored")
                source = tail + Int(n % Int64(tailCapacity)) * channels
            }
            (output + i * channels).update(from: source, count: channels)
        }
    }
}
