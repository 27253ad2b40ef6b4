import Foundation

/// Removes the temporaries a killed run left behind: folders named `.obscura-tmp-…` (a run being
/// written before it is swapped in) and files named `.NAME.tmp-XXXXXX` (an `AtomicFile` write).
///
/// Only those exact names are touched, and only once they are older than an hour, so a run still
/// writing next door is left alone. Sweeping is best effort: a temporary that cannot be removed
/// stays, and nothing is reported.
public enum StaleTemporaries {
    /// The name prefix of a run's temporary folder.
    public static let folderPrefix = ".obscura-tmp-"
    /// How old a temporary must be before it counts as abandoned, in seconds.
    public static let maximumAge: TimeInterval = 3600

    /// Whether `name` is a temporary folder name of a run (`.obscura-tmp-` and at least one character).
    public static func isRunFolder(_ name: String) -> Bool {
        name.hasPrefix(folderPrefix) && name.count > folderPrefix.count
    }

    /// Whether `name` is an `AtomicFile` temporary: `.` + NAME + `.tmp-` + six letters or digits.
    public static func isAtomicFileTemporary(_ name: String) -> Bool {
        let marker = AtomicFile.temporaryMarker
        guard name.hasPrefix("."), name.count > 1 + marker.count + 6 else { return false }
        let suffix = name.suffix(6)
        guard suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return false }
        return name.dropLast(6).hasSuffix(marker)
    }

    /// Sweeps `directory`; returns the names removed.
    @discardableResult
    public static func sweep(_ directory: String, olderThan age: TimeInterval = maximumAge, now: Date = Date())
        -> [String]
    {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in names where isRunFolder(name) || isAtomicFileTemporary(name) {
            let path = FileConfinement.join(directory, name)
            // Attributes of the entry itself: a link of a matching name is neither of ours.
            guard let attributes = try? fm.attributesOfItem(atPath: path),
                let type = attributes[.type] as? FileAttributeType,
                let modified = attributes[.modificationDate] as? Date,
                now.timeIntervalSince(modified) > age
            else { continue }
            let expected: FileAttributeType = isRunFolder(name) ? .typeDirectory : .typeRegular
            guard type == expected else { continue }
            if (try? fm.removeItem(atPath: path)) != nil { removed.append(name) }
        }
        return removed
    }
}
