import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
// C's `stdout` is a mutable global, which only `lineBufferStandardOutput` touches, once, before any other
// thread exists; `@preconcurrency` on the C library's own module lets Swift 6 name it.
#if canImport(SwiftGlibc)
@preconcurrency import SwiftGlibc
#endif

/// What the terminal gets: colour and progress only when a person is watching.
///
/// Colour follows the common convention of command-line tools: only on a terminal, and never when
/// `NO_COLOR` is set to a non-empty value (no-color.org). Progress lines go to standard error and
/// only when it is a terminal, so CI logs and captured output hold results, not chatter; there a
/// long job says only its milestones, one line each (`milestone`).
enum Terminal {
    enum Colour: String {
        case red = "31", green = "32", yellow = "33"
    }

    /// Whether standard error is a terminal.
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether text written to `descriptor` may carry colour.
    static func colours(_ descriptor: Int32) -> Bool {
        if let value = ProcessInfo.processInfo.environment["NO_COLOR"], !value.isEmpty { return false }
        return isatty(descriptor) == 1
    }

    /// `text` in `colour` when `descriptor` may carry colour, else unchanged.
    static func paint(_ text: String, _ colour: Colour, for descriptor: Int32 = STDOUT_FILENO) -> String {
        colours(descriptor) ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Writes a progress line to standard error when it is a terminal.
    static func progress(_ line: String) {
        guard standardErrorIsTerminal else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes a line to standard error when it is not a terminal: the one line per finished piece of
    /// work (a scenario) that a CI log shows in place of the step-by-step progress a person watches.
    static func milestone(_ line: String) {
        guard !standardErrorIsTerminal else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Makes standard output line-buffered, as it is on a terminal, when it is a pipe or a file, so a CI
    /// log shows each result as it is printed rather than when a buffer fills or the program ends.
    static func lineBufferStandardOutput() {
        setvbuf(stdout, nil, _IOLBF, 0)
    }
}
