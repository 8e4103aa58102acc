import Foundation
import Testing
@testable import AUPipeGraph

/// `OrderStatistic.select` (the delay estimator's noise floor) gives the value a full sort puts
/// at the rank, for magnitudes with ties, zeros, subnormals and a wide spread, at every rank of
/// small sets and at the median of large ones (the radix step's path).
@Suite struct OrderStatisticTests {
    /// Non-negative floats from a seeded generator: `kind` 0 spread over 60 dB, 1 a few values
    /// repeated, 2 mostly zeros and subnormals.
    static func values(_ count: Int, seed: UInt64, kind: Int) -> [Float] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (0..<count).map { _ in
            let u = Float(next() >> 40) * 0x1p-24
            switch kind {
            case 0: return Float(pow(10.0, Double(u) * 6 - 3))
            case 1: return Float(next() % 5) * 0.25
            default: return next() % 4 == 0 ? Float.leastNonzeroMagnitude * Float(next() % 7) : 0
            }
        }
    }

    @Test func agreesWithSorting() {
        let histogram = UnsafeMutablePointer<Int32>.allocate(capacity: OrderStatistic.radixBuckets)
        defer { histogram.deallocate() }
        for kind in 0..<3 {
            for count in [1, 2, 7, 64, 65, 1000, 8001] {
                let v = Self.values(count, seed: UInt64(31 * count + kind), kind: kind)
                let sorted = v.sorted()
                let ranks = count <= 65 ? Array(0..<count) : [0, count / 2, count - 1, count / 3]
                for rank in ranks {
                    var work = v
                    let got = work.withUnsafeMutableBufferPointer { OrderStatistic.select($0.baseAddress!, count: count, rank: rank, histogram: histogram) }
                    #expect(got.bitPattern == sorted[rank].bitPattern, "kind \(kind), \(count) values, rank \(rank)")
                }
            }
        }
    }
}
