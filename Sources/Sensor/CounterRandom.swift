import Foundation

/// Counter-based random numbers: each value is a hash of (key, counter), so any pixel can be
/// drawn by any thread in any order and the frame's bytes never depend on scheduling.
///
/// The mixer is the SplitMix64 finaliser (Steele, Lea & Flood 2014), applied to a key built from
/// the seed, the frame, the pixel and the channel.
struct CounterRandom {
    let key: UInt64

    @inline(__always) static func mix(_ z0: UInt64) -> UInt64 {
        var z = z0 &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The part of a pixel's key shared by every pixel of one (seed, stream): hoisted out of pixel loops.
    @inline(__always) static func streamKey(seed: UInt64, stream: UInt64) -> UInt64 {
        mix(seed ^ mix(stream))
    }

    /// Draw `index` of a stream in one mix: SplitMix64's output for state key + (index + 1)·γ, so
    /// consecutive indices of one stream are SplitMix64's own sequence.
    @inline(__always) static func draw(streamKey: UInt64, index: UInt64) -> UInt64 {
        mix(streamKey &+ index &* 0x9E37_79B9_7F4A_7C15)
    }

    @inline(__always) init(streamKey: UInt64, pixel: Int) {
        key = CounterRandom.mix(streamKey ^ UInt64(truncatingIfNeeded: pixel))
    }

    @inline(__always) init(seed: UInt64, stream: UInt64, pixel: Int) {
        self.init(streamKey: CounterRandom.streamKey(seed: seed, stream: stream), pixel: pixel)
    }

    @inline(__always) private func bits(_ counter: UInt64) -> UInt64 {
        CounterRandom.mix(key ^ (counter &* 0xD6E8_FEB8_6659_FD93))
    }

    /// A uniform double in (0, 1).
    @inline(__always) func uniform(_ counter: UInt64) -> Double {
        (Double(bits(counter) >> 11) + 0.5) * 0x1p-53
    }

    /// A standard normal deviate (inverse-CDF method, see `StandardNormal`).
    @inline(__always) func normal(_ counter: UInt64) -> Double {
        StandardNormal.quantile(uniform(counter))
    }
}
