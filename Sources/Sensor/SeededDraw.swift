/// Reproducible random values drawn once per capture or per unit (a flicker phase, a unit's tolerance), from the
/// same counter-based generator as the sensor noise (`CounterRandom`): each value is a hash of its seed, stream
/// and index, so it never depends on the order of draws or the number of threads.
public enum SeededDraw {
    /// A uniform value in (0, 1).
    public static func uniform(seed: UInt64, stream: UInt64, index: Int = 0) -> Double {
        CounterRandom(seed: seed, stream: stream, pixel: index).uniform(0)
    }

    /// A standard normal deviate.
    public static func normal(seed: UInt64, stream: UInt64, index: Int = 0) -> Double {
        CounterRandom(seed: seed, stream: stream, pixel: index).normal(0)
    }
}
