/// A problem in a user's file, tied to the place where it was found.
///
/// Its description reads `file:line:column: message`, the one form every Obscura loader uses
/// for bad input, so editors and CI logs can jump straight to the offending character.
public struct LocatedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, in one sentence, without the location.
    public var message: String

    /// An error at a location.
    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    /// `file:line:column: message`; the message alone for a problem of a whole file or folder, whose
    /// message names it (`cannot read x.yaml: no such file`).
    public var description: String { location.isInsideFile ? "\(location): \(message)" : message }
}

/// Several located problems found in one pass, reported together.
///
/// Loaders validate as much as they can (camera by camera, entry by entry) before giving up, so
/// a user sees every problem in one run rather than one per run.
public struct LocatedErrors: Error, Sendable, CustomStringConvertible {
    /// The problems, in file order.
    public var errors: [LocatedError]

    /// A collection of problems; sorted by file, line and column.
    public init(_ errors: [LocatedError]) {
        self.errors = errors.sorted {
            ($0.location.file, $0.location.line, $0.location.column)
                < ($1.location.file, $1.location.line, $1.location.column)
        }
    }

    /// One problem per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// Collects located errors while validation continues, then throws them all at once.
public struct ErrorCollector: Sendable {
    /// The problems so far.
    public private(set) var errors: [LocatedError] = []

    /// An empty collector.
    public init() {}

    /// Records one problem.
    public mutating func add(_ error: LocatedError) { errors.append(error) }

    /// Runs `body`; a thrown located error is recorded and `nil` returned, so the caller can
    /// carry on with the next independent part (the next camera, the next format).
    public mutating func attempt<T>(_ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch let error as LocatedError {
            errors.append(error)
        } catch let list as LocatedErrors {
            errors.append(contentsOf: list.errors)
        } catch {
            // Readers throw only located errors; anything else still must not vanish.
            errors.append(LocatedError(SourceLocation(file: "<input>", line: 1, column: 1), "\(error)"))
        }
        return nil
    }

    /// Throws every recorded problem, if there are any.
    public func throwIfAny() throws {
        if !errors.isEmpty { throw LocatedErrors(errors) }
    }
}
