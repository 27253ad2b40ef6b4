import ArgumentParser
import Spectra

/// `obscura color`: colour-science calculations.
struct ColorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "color",
        abstract: "Colour-science calculations: colour differences, illuminants, chart patches.",
        subcommands: [DeltaECommand.self, IlluminantCommand.self, PatchCommand.self]
    )
}

/// `obscura color delta-e L,a,b L,a,b`.
struct DeltaECommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delta-e",
        abstract: "Print the colour difference between two CIELAB colours.",
        discussion: "CIEDE2000 (CIE 142-2001, Sharma et al. 2005) by default; --method cie76 gives ΔE*ab."
    )

    enum Method: String, ExpressibleByArgument, CaseIterable {
        case ciede2000, cie76
    }

    @Argument(help: "The first colour, as L,a,b (for example 50,2.6772,-79.7751): L* 0…100, a* and b* within ±500.")
    var first: LabArgument

    @Argument(help: "The second colour, as L,a,b.")
    var second: LabArgument

    @Option(help: "The difference formula: \(Method.allCases.map(\.rawValue).joined(separator: ", ")).")
    var method: Method = .ciede2000

    @Flag(help: "Print JSON with stable keys instead of text.")
    var json = false

    func run() throws {
        let a = first.lab, b = second.lab
        let value = method == .ciede2000 ? DeltaE.ciede2000(a, b) : DeltaE.cie76(a, b)
        if json {
            try printJSON(DeltaEReport(method: method.rawValue, lab1: [a.L, a.a, a.b], lab2: [b.L, b.a, b.b],
                                       deltaE: value))
        } else {
            let name = method == .ciede2000 ? "ΔE00" : "ΔE*ab"
            print("\(name) = \(format(value, 4))")
        }
    }
}

private struct DeltaEReport: Encodable {
    var method: String
    var lab1: [Double]
    var lab2: [Double]
    var deltaE: Double

    enum CodingKeys: String, CodingKey { case method, lab1, lab2, deltaE = "delta_e" }
}

/// `obscura color illuminant --cct K [--duv D] [--model …]`.
struct IlluminantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "illuminant",
        abstract: "Build an illuminant spectrum for a CCT (and Duv) and print its colorimetry.",
        discussion: """
            The chromaticity, CCT and Duv printed are measured back from the spectrum (CIE 1931 2°, \
            Ohno 2013), so they show what the model actually produced. XYZ is the perfect diffuser \
            under the illuminant, Y = 100.
            """
    )

    @Option(parsing: .unconditional, help: "Correlated colour temperature in kelvin.")
    var cct: Double

    // `.unconditional` so that `--duv -0.02` reads the negative number rather than an option.
    @Option(parsing: .unconditional,
            help: "Distance from the Planckian locus in CIE 1960 uv: positive is greenish, negative magenta.")
    var duv: Double = 0

    @Option(help: "Spectral model: \(IlluminantModel.allCases.map(\.rawValue).joined(separator: ", ")).")
    var model: IlluminantModel = .auto

    @Flag(help: "Print JSON with stable keys instead of text.")
    var json = false

    func validate() throws {
        guard cct.isFinite, cct >= 1000, cct <= 25000 else {
            throw ValidationError("--cct must be between 1000 and 25000 K, got \(cct)")
        }
        guard duv.isFinite, abs(duv) <= 0.05 else {
            throw ValidationError("--duv must be within ±0.05 (CCT means nothing further from the locus), got \(duv)")
        }
    }

    func run() throws {
        let spectrum: Spectrum
        do {
            spectrum = try Illuminants.make(cct: cct, duv: duv, model: model)
        } catch {
            throw CommandFailure.badInput("\(error)")
        }
        let white = Colorimetry.whitePoint(of: spectrum)
        let xy = white.chromaticity
        let measured = CCT.cctAndDuv(of: xy)
        if json {
            try printJSON(IlluminantReport(
                model: model.rawValue, requested: .init(cct: cct, duv: duv),
                x: xy.x, y: xy.y, cct: measured.cct, duv: measured.duv, XYZ: [white.X, white.Y, white.Z]))
        } else {
            print("illuminant  \(model.rawValue) model, \(format(cct, 1)) K, Duv \(signed(duv, 4)) requested")
            print("xy          \(format(xy.x, 5)), \(format(xy.y, 5))")
            print("CCT         \(format(measured.cct, 1)) K")
            print("Duv         \(signed(measured.duv, 5))")
            print("XYZ white   \(format(white.X, 4)), \(format(white.Y, 4)), \(format(white.Z, 4))")
        }
    }
}

private struct IlluminantReport: Encodable {
    struct Requested: Encodable { var cct: Double; var duv: Double }
    var model: String
    var requested: Requested
    var x: Double
    var y: Double
    var cct: Double
    var duv: Double
    var XYZ: [Double]

    enum CodingKeys: String, CodingKey { case model, requested, x, y, cct, duv, XYZ = "xyz" }
}

extension IlluminantModel: ExpressibleByArgument {}

/// `obscura color patch --chart colorchecker --patch N --illuminant D65|A|K[,Duv]`.
struct PatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patch",
        abstract: "Print the XYZ and CIELAB of a chart patch under an illuminant.",
        discussion: """
            The white is the illuminant's perfect diffuser (Y = 100), so Lab is relative to the same light. \
            Charts: colorchecker (patches 1–24, Ohta / ISO 17321-1 spectra) and skin (the skin-tone set, \
            light to dark).
            """
    )

    enum Chart: String, ExpressibleByArgument, CaseIterable {
        case colorchecker, skin
    }

    @Option(help: "The chart: \(Chart.allCases.map(\.rawValue).joined(separator: ", ")).")
    var chart: Chart = .colorchecker

    @Option(help: "The patch number (1-based) or name.")
    var patch: String

    @Option(help: "D65, A, or a CCT in kelvin with an optional Duv, as K or K,Duv (for example 3000,-0.02).")
    var illuminant: IlluminantArgument = IlluminantArgument(kind: .d65)

    @Flag(help: "Print JSON with stable keys instead of text.")
    var json = false

    func run() throws {
        let patches = chart == .colorchecker ? ColorChecker.patches : SkinTones.patches
        let found: ReflectancePatch?
        if let number = Int(patch) {
            found = patches.first { $0.number == number }
        } else {
            found = patches.first { $0.name.lowercased() == patch.lowercased() }
        }
        guard let entry = found else {
            let range = "\(patches.first?.number ?? 1)–\(patches.last?.number ?? patches.count)"
            throw CommandFailure.badInput("no patch '\(patch)' in chart \(chart.rawValue) (numbers \(range))")
        }
        let light = try illuminant.spectrum()
        let xyz = Colorimetry.xyz(reflectance: entry.reflectance, illuminant: light)
        let lab = Colorimetry.lab(reflectance: entry.reflectance, illuminant: light)
        if json {
            try printJSON(PatchReport(chart: chart.rawValue, patch: entry.number, name: entry.name,
                                      illuminant: illuminant.description, XYZ: [xyz.X, xyz.Y, xyz.Z],
                                      Lab: [lab.L, lab.a, lab.b]))
        } else {
            print("patch       \(chart.rawValue) #\(entry.number) \(entry.name)")
            print("illuminant  \(illuminant.description)")
            print("XYZ         \(format(xyz.X, 4)), \(format(xyz.Y, 4)), \(format(xyz.Z, 4))")
            print("Lab         \(format(lab.L, 3)), \(format(lab.a, 3)), \(format(lab.b, 3))")
        }
    }
}

private struct PatchReport: Encodable {
    var chart: String
    var patch: Int
    var name: String
    var illuminant: String
    var XYZ: [Double]
    var Lab: [Double]

    enum CodingKeys: String, CodingKey { case chart, patch, name, illuminant, XYZ = "xyz", Lab = "lab" }
}
