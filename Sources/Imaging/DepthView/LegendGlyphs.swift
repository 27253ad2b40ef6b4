/// A 5 × 7 dot-matrix face for the few characters a depth legend prints: digits, the decimal
/// point, "m" and the word "hole". Drawn here rather than taken from a font library, because a
/// legend of numbers needs no shaping, hinting or font files.
enum LegendGlyphs {
    static let width = 5
    static let height = 7
    /// Horizontal distance from one character to the next, dots.
    static let advance = 6

    /// Each glyph as 7 rows, top first; `#` is ink.
    private static let rows: [Character: [String]] = [
        "0": [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."],
        "1": ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
        "2": [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
        "3": ["#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."],
        "4": ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."],
        "5": ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."],
        "6": ["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."],
        "7": ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."],
        "8": [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."],
        "9": [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."],
        ".": [".....", ".....", ".....", ".....", ".....", ".##..", ".##.."],
        "m": [".....", ".....", "##.#.", "#.#.#", "#.#.#", "#...#", "#...#"],
        "h": ["#....", "#....", "#.##.", "##..#", "#...#", "#...#", "#...#"],
        "o": [".....", ".....", ".###.", "#...#", "#...#", "#...#", ".###."],
        "l": [".##..", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."],
        "e": [".....", ".....", ".###.", "#...#", "#####", "#....", ".###."],
        " ": [".....", ".....", ".....", ".....", ".....", ".....", "....."],
    ]

    /// Whether the dot at column `x`, row `y` of `character` is ink; unknown characters are blank.
    static func ink(_ character: Character, x: Int, y: Int) -> Bool {
        guard let glyph = rows[character], y >= 0, y < height, x >= 0, x < width else { return false }
        let row = glyph[y]
        return row[row.index(row.startIndex, offsetBy: x)] == "#"
    }

    /// The width of `text` in dots, without the gap after its last character.
    static func width(of text: String) -> Int { text.isEmpty ? 0 : text.count * advance - (advance - width) }
}
