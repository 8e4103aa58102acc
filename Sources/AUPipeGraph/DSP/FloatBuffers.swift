/// The float buffers a DSP type allocates once, in its `init`, and frees together when it goes:
/// its working memory, so that nothing is allocated in the audio path and no type keeps its own
/// list of pointers to free in `deinit`.
package final class FloatBuffers {
    private var made: [UnsafeMutablePointer<Float>] = []

    package init() {}

    /// `count` floats, each `value`; freed with this object.
    package func make(_ count: Int, _ value: Float = 0) -> UnsafeMutablePointer<Float> {
        let b = UnsafeMutablePointer<Float>.allocate(capacity: count)
        b.initialize(repeating: value, count: count)
        made.append(b)
        return b
    }

    deinit { for b in made { b.deallocate() } }
}
