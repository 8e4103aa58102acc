/// The k-th smallest of a set of non-negative floats, exactly (`DelayEstimator`'s noise floor,
/// the median correlation magnitude). Allocates nothing.
package enum OrderStatistic {
    /// The element of rank `rank` (0-based, ascending) of `values[0..<count]`, which must be
    /// ≥ 0 or +0 (magnitudes; no NaN), reordering them: the value is the same as any exact
    /// selection's. A radix step first: the values' bit patterns order as they do (non-negative
    /// floats), so a histogram of their top `radixBits` bits finds the bucket that holds the
    /// rank; only that bucket's values (gathered at the front) go through `quickselect`. It
    /// costs a pass over the values and few mispredicted branches, where a quickselect over all
    /// of them (`DelayEstimator`'s floor: 8001 per analysis) mispredicts about one comparison in two.
    /// `histogram` holds `radixBuckets` counts (scratch).
    package static func select(_ values: UnsafeMutablePointer<Float>, count: Int, rank: Int, histogram buckets: UnsafeMutablePointer<Int32>) -> Float {
        precondition(rank >= 0 && rank < count, "select: rank \(rank) outside 0..<\(count)")
        guard count > 64 else { return quickselect(values, count: count, rank: rank) }
        buckets.update(repeating: 0, count: radixBuckets)
        let shift = UInt32(32 - radixBits)
        for i in 0..<count { buckets[Int(values[i].bitPattern >> shift)] += 1 }
        var below = 0, bucket = 0
        while below + Int(buckets[bucket]) <= rank {
            below += Int(buckets[bucket])
            bucket += 1
        }
        var n = 0
        for i in 0..<count where Int(values[i].bitPattern >> shift) == bucket {
            values[n] = values[i]
            n += 1
        }
        return quickselect(values, count: n, rank: rank - below)
    }

    /// The top bits of a float's pattern that `select`'s histogram counts (the sign, the
    /// exponent and 3 bits of the significand: each bucket an eighth of an octave), and its buckets.
    private static let radixBits = 12
    package static let radixBuckets = 1 << radixBits

    /// `select` by Hoare's quickselect (middle pivot), for any floats but NaN.
    static func quickselect(_ values: UnsafeMutablePointer<Float>, count: Int, rank: Int) -> Float {
        var lo = 0, hi = count - 1
        while lo < hi {
            let pivot = values[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    let t = values[i]; values[i] = values[j]; values[j] = t
                    i += 1; j -= 1
                }
            }
            if rank <= j { hi = j } else if rank >= i { lo = i } else { break }
        }
        return values[rank]
    }
}
