import Foundation

/// Scenes written for the colour tests, unlike the seed scenes in materials, lights, distances and
/// colours: each puts a large strongly coloured surface beside a smaller near-neutral one, so an
/// auto white balance that trusted the average colour would go wrong.
enum ColourScenes {
    /// A teal front door in a yellow brick wall, 2.6 m away, under 3,000 lux of overcast 7,500 K
    /// north-sky daylight; a concrete step and a brass knob.
    static let doorInDaylight = """
        description: A teal door in a yellow brick wall under overcast 7500 K daylight, a concrete step.
        device:
          position_m: [0.0, 1.1, 2.6]
          look_at_m: [0.0, 1.0, 0.0]
        ambient:
          spectrum: {cct_k: 7500, model: daylight}
          lux: 3000
          direction: [0.2, 1.0, 0.6]
          diffuse_fraction: 0.8
        materials:
          - {name: yellow brick, srgb: [0.78, 0.62, 0.30], roughness: 0.9}
          - {name: teal paint, srgb: [0.05, 0.40, 0.45], specular: 0.04, roughness: 0.3}
          - {name: concrete, reflectance: 0.30}
          - {name: brass, srgb: [0.75, 0.60, 0.25], specular: 0.7, roughness: 0.2}
        objects:
          - {name: wall, shape: plane, size_m: [5.0, 3.5], position_m: [0.0, 1.5, 0.0], material: yellow brick}
          - {name: door, shape: plane, size_m: [0.9, 2.0], position_m: [0.0, 1.0, 0.01], material: teal paint}
          - {name: step, shape: box, size_m: [1.4, 0.15, 0.4], position_m: [0.0, 0.075, 0.2], material: concrete}
          - {name: ground, shape: plane, size_m: [5.0, 4.0], position_m: [0.0, 0.0, 1.0],
             rotation: {pitch_deg: -90}, material: concrete}
          - {name: knob, shape: sphere, radius_m: 0.03, position_m: [0.33, 1.0, 0.05], material: brass}
        """

    /// A dinner table at 1.0 m in a dim 1,900 K room (40 lux, candle-warm): a red tablecloth, white
    /// plates and a dark green wall.
    static let candlelitTable = """
        description: White plates on a red tablecloth before a dark green wall, 40 lux of 1900 K light.
        device:
          position_m: [0.0, 0.55, 1.0]
          look_at_m: [0.0, 0.25, 0.0]
        ambient:
          spectrum: {cct_k: 1900}
          lux: 40
          direction: [0.3, 1.0, 0.4]
          diffuse_fraction: 0.7
        materials:
          - {name: red cloth, srgb: [0.62, 0.08, 0.10], roughness: 1.0}
          - {name: porcelain, reflectance: 0.82, specular: 0.04, roughness: 0.15}
          - {name: green paint, srgb: [0.16, 0.30, 0.20]}
          - {name: linen, srgb: [0.86, 0.84, 0.78]}
        objects:
          - {name: cloth, shape: plane, size_m: [2.0, 1.4], rotation: {pitch_deg: -90}, material: red cloth}
          - {name: wall, shape: plane, size_m: [3.0, 2.0], position_m: [0.0, 0.8, -0.6], material: green paint}
          - {name: plate-1, shape: disc, radius_m: 0.13, position_m: [-0.18, 0.005, 0.1],
             rotation: {pitch_deg: -90}, material: porcelain}
          - {name: plate-2, shape: disc, radius_m: 0.13, position_m: [0.18, 0.005, 0.1],
             rotation: {pitch_deg: -90}, material: porcelain}
          - {name: napkin, shape: box, size_m: [0.2, 0.03, 0.2], position_m: [0.0, 0.015, -0.25], material: linen}
        """

    /// A studio corner at 0.8 m lit by 600 lux of the CIE LED-RGB1 illuminant (three narrow LEDs, off
    /// the Planckian locus): a lilac backdrop, a lime ball, a skin-tone card and a grey card.
    static let rgbLEDStudio = """
        description: A lime ball, a skin card and a grey card before a lilac backdrop, 600 lux of LED-RGB1.
        device:
          position_m: [0.0, 0.3, 0.8]
          look_at_m: [0.0, 0.2, 0.0]
        ambient:
          spectrum: {illuminant: LED-RGB1}
          lux: 600
          direction: [-0.3, 1.0, 0.8]
          diffuse_fraction: 0.5
        materials:
          - {name: lilac, srgb: [0.70, 0.60, 0.85]}
          - {name: lime, srgb: [0.60, 0.80, 0.20], specular: 0.05, roughness: 0.4}
          - {name: skin, reflectance: "skin:060"}
          - {name: grey card, reflectance: 0.18}
          - {name: floor grey, reflectance: 0.45}
        objects:
          - {name: backdrop, shape: plane, size_m: [2.0, 1.5], position_m: [0.0, 0.5, -0.3], material: lilac}
          - {name: floor, shape: plane, size_m: [2.0, 1.5], position_m: [0.0, 0.0, 0.3],
             rotation: {pitch_deg: -90}, material: floor grey}
          - {name: ball, shape: sphere, radius_m: 0.08, position_m: [-0.15, 0.08, 0.0], material: lime}
          - {name: skin card, shape: plane, size_m: [0.12, 0.16], position_m: [0.1, 0.2, -0.1], material: skin}
          - {name: grey card, shape: plane, size_m: [0.12, 0.16], position_m: [0.25, 0.2, -0.1], material: grey card}
        """

    /// The scenes by name.
    static let all = ["door-in-daylight": doorInDaylight, "candlelit-table": candlelitTable, "rgb-led-studio": rgbLEDStudio]

    /// The path of a scene written to a temporary folder (once per process).
    static func path(_ name: String) throws -> String {
        let dir = try TestScratch.folder("colour-scenes")
        let file = dir.appendingPathComponent("\(name).yaml")
        if !FileManager.default.fileExists(atPath: file.path) {
            try (all[name] ?? "").write(to: file, atomically: true, encoding: .utf8)
        }
        return file.path
    }
}
