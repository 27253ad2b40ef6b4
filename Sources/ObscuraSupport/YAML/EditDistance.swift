/// Levenshtein distance and "did you mean" suggestions for mistyped keys.
public enum EditDistance {
    /// The number of single-character insertions, deletions and substitutions turning `a` into
    /// `b` (Levenshtein 1966), compared case-insensitively.
    public static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased())
        let y = Array(b.lowercased())
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let substitution = previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }

    /// The candidate closest to `word`, if it is close enough to be a plausible typo.
    ///
    /// The threshold (a third of the word's length, at least 2) accepts transpositions and a
    /// dropped unit suffix (`focal_length` → `focal_length_mm`) but not unrelated words.
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(word, candidate)
            if best.map({ d < $0.1 }) ?? true { best = (candidate, d) }
        }
        guard let (candidate, d) = best else { return nil }
        let limit = max(2, word.count / 3)
        if d <= limit { return candidate }
        // A key missing only its unit suffix, or carrying an extra one, is still a near miss.
        if candidate.hasPrefix(word) || word.hasPrefix(candidate) { return candidate }
        return nil
    }
}
