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
    /// A word that is a shortening of a candidate, every letter of it in the candidate in order, comes first
    /// (`shortening(_:among:)` says which, when several hold it): a user who drops part of a long name
    /// (`builtInWideCamera`, `iphone-7`) means the name that holds it, not another of the same length that
    /// differs in four letters. Otherwise the threshold (a third of the word's length, at least 2) accepts
    /// transpositions and a dropped unit suffix (`focal_length` → `focal_length_mm`) but not unrelated words.
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        if let shortened = shortening(word, among: candidates) { return shortened }
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

    /// The candidate `word` shortens (its letters, case-insensitively, in order) when what is left out is at most
    /// half the word's length (at least 5) and the word has at least 4 letters: shorter words are found inside
    /// too many names to point at one. Of several, the one that starts with more of the word (a name is read
    /// from its start: `builtInWideCamera` is `builtInWideAngleCamera` before `builtInDualWideCamera`), then
    /// the one with the fewest letters left out.
    static func shortening(_ word: String, among candidates: [String]) -> String? {
        let letters = Array(word.lowercased())
        guard letters.count >= 4 else { return nil }
        var best: (name: String, prefix: Int, extra: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            let extra = other.count - letters.count
            guard extra > 0, extra <= max(5, letters.count / 2) else { continue }
            var i = 0
            for c in other where i < letters.count && c == letters[i] { i += 1 }
            guard i == letters.count else { continue }
            let prefix = zip(letters, other).prefix { $0 == $1 }.count
            if best.map({ prefix > $0.prefix || (prefix == $0.prefix && extra < $0.extra) }) ?? true {
                best = (candidate, prefix, extra)
            }
        }
        return best?.name
    }
}
