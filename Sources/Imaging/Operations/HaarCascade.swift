import Foundation

/// A boosted cascade of Haar-like features (Viola and Jones, "Rapid Object Detection using a Boosted Cascade of
/// Simple Features", CVPR 2001; the extended feature set of Lienhart and Maydt, ICIP 2002), read from the XML files
/// OpenCV's training writes (`opencv_storage/cascade`, stage type BOOST, feature type HAAR), such as the frontal-face
/// cascades Debian's `opencv-data` package installs.
///
/// A cascade judges one window of `windowWidth × windowHeight` pixels at a time. Each stage sums the leaf values its
/// weak classifiers (small decision trees on one feature each) reach and rejects the window when the sum falls
/// below the stage's threshold; a window every stage accepts is a detection. A feature is a weighted sum of
/// rectangle sums, divided by the window's standard deviation times its area, so that the cascade answers the same
/// whatever the exposure and contrast.
public struct HaarCascade: Sendable {
    /// One rectangle of a feature, in window pixels, and its weight.
    struct Box: Sendable, Equatable {
        let x: Int, y: Int, width: Int, height: Int
        let weight: Float
    }

    /// A node of a weak classifier's tree: the feature it tests, the threshold, and where each side leads (a
    /// positive index is the next node of the same tree; zero or a negative one is the leaf numbered by its
    /// magnitude).
    struct Node: Sendable, Equatable {
        let left: Int, right: Int
        let feature: Int
        let threshold: Float
    }

    /// A weak classifier: its tree and its leaves.
    struct Tree: Sendable, Equatable {
        let nodes: [Node]
        let leaves: [Float]
    }

    struct Stage: Sendable, Equatable {
        let threshold: Float
        let trees: [Tree]
    }

    public let windowWidth: Int
    public let windowHeight: Int
    let stages: [Stage]
    /// The features, each a list of weighted rectangles.
    let features: [[Box]]

    /// A cascade read from the text of an OpenCV cascade file. Throws `HaarCascade.ReadError` naming what is
    /// missing or malformed.
    public init(xml text: String) throws {
        let root = try XMLElementTree.parse(text)
        guard let cascade = root.first("cascade") else { throw ReadError("no <cascade> element") }
        guard cascade.first("stageType")?.text == "BOOST" else { throw ReadError("stageType is not BOOST") }
        guard cascade.first("featureType")?.text == "HAAR" else { throw ReadError("featureType is not HAAR") }
        guard let width = cascade.first("width").flatMap({ Int($0.text) }),
            let height = cascade.first("height").flatMap({ Int($0.text) }), width > 2, height > 2
        else { throw ReadError("no window width and height") }
        (windowWidth, windowHeight) = (width, height)
        guard let stageList = cascade.first("stages")?.children, !stageList.isEmpty else {
            throw ReadError("no stages")
        }
        stages = try stageList.enumerated().map { s, stage in
            guard let threshold = stage.first("stageThreshold").flatMap({ Float($0.text) }) else {
                throw ReadError("stage \(s) has no stageThreshold")
            }
            let trees = try (stage.first("weakClassifiers")?.children ?? []).map { weak in
                let numbers = (weak.first("internalNodes")?.numbers ?? [])
                let leaves = (weak.first("leafValues")?.numbers ?? []).map { Float($0) }
                guard !numbers.isEmpty, numbers.count % 4 == 0, !leaves.isEmpty else {
                    throw ReadError("stage \(s) has a weak classifier without nodes or leaves")
                }
                let nodes = stride(from: 0, to: numbers.count, by: 4).map { k in
                    Node(
                        left: Int(numbers[k]), right: Int(numbers[k + 1]), feature: Int(numbers[k + 2]),
                        threshold: Float(numbers[k + 3]))
                }
                return Tree(nodes: nodes, leaves: leaves)
            }
            return Stage(threshold: threshold, trees: trees)
        }
        features = try (cascade.first("features")?.children ?? []).enumerated().map { f, feature in
            if feature.first("tilted")?.text == "1" { throw ReadError("feature \(f) is tilted (not supported)") }
            let boxes = try (feature.first("rects")?.children ?? []).map { rect in
                let v = rect.numbers
                guard v.count == 5 else { throw ReadError("feature \(f) has a rectangle without five numbers") }
                let box = Box(x: Int(v[0]), y: Int(v[1]), width: Int(v[2]), height: Int(v[3]), weight: Float(v[4]))
                guard box.x >= 0, box.y >= 0, box.width > 0, box.height > 0, box.x + box.width <= width,
                    box.y + box.height <= height
                else { throw ReadError("feature \(f) has a rectangle outside the window") }
                return box
            }
            guard !boxes.isEmpty else { throw ReadError("feature \(f) has no rectangles") }
            return boxes
        }
        for (s, stage) in stages.enumerated() {
            for tree in stage.trees {
                for node in tree.nodes {
                    guard features.indices.contains(node.feature),
                        node.left <= 0 ? -node.left < tree.leaves.count : node.left < tree.nodes.count,
                        node.right <= 0 ? -node.right < tree.leaves.count : node.right < tree.nodes.count
                    else { throw ReadError("stage \(s) names a feature, node or leaf that does not exist") }
                }
            }
        }
    }

    /// What is wrong with a cascade file.
    public struct ReadError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = "cascade file: " + description }
    }

    /// Whether the window whose top-left corner is (`x`, `y`) passes every stage. `sums` and `squares` are the
    /// integral images of the picture (on a 0…255 scale) and of its squares, `(width + 1) × (height + 1)` values
    /// each, with a zero first row and column.
    func accepts(x: Int, y: Int, sums: UnsafePointer<Double>, squares: UnsafePointer<Double>, stride: Int) -> Bool {
        func boxSum(_ p: UnsafePointer<Double>, _ bx: Int, _ by: Int, _ bw: Int, _ bh: Int) -> Double {
            let top = (y + by) * stride + x + bx, bottom = (y + by + bh) * stride + x + bx
            return p[bottom + bw] - p[bottom] - p[top + bw] + p[top]
        }
        // The window's mean and spread come from its inside, one pixel in from each edge, as the cascades were
        // trained: features are divided by the standard deviation times that area. A nearly flat window (a
        // standard deviation of 10 grey levels or less) is passed over: normalising it would only lift noise.
        let (iw, ih) = (windowWidth - 2, windowHeight - 2)
        let area = Double(iw * ih)
        let s = boxSum(sums, 1, 1, iw, ih), q = boxSum(squares, 1, 1, iw, ih)
        let spread = area * q - s * s
        guard spread > 0, spread.squareRoot() > 10 * area else { return false }
        let norm = 1 / spread.squareRoot()
        for stage in stages {
            var total: Float = 0
            for tree in stage.trees {
                var index = 0
                repeat {
                    let node = tree.nodes[index]
                    var value = 0.0
                    for box in features[node.feature] {
                        value += Double(box.weight) * boxSum(sums, box.x, box.y, box.width, box.height)
                    }
                    index = Float(value * norm) < node.threshold ? node.left : node.right
                } while index > 0
                total += tree.leaves[-index]
            }
            if total < stage.threshold { return false }
        }
        return true
    }
}

/// The elements of an XML document, enough for OpenCV's storage files: nested elements and their text; comments,
/// declarations and attributes are skipped.
struct XMLElementTree {
    let name: String
    var text = ""
    var children: [XMLElementTree] = []

    /// The first child named `name`.
    func first(_ name: String) -> XMLElementTree? { children.first { $0.name == name } }

    /// The element's text as numbers separated by white space.
    var numbers: [Double] { text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) } }

    static func parse(_ document: String) throws -> XMLElementTree {
        var stack = [XMLElementTree(name: "")]
        let bytes = Array(document.utf8)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<") else {
                var j = i
                while j < bytes.count, bytes[j] != UInt8(ascii: "<") { j += 1 }
                stack[stack.count - 1].text += String(decoding: bytes[i..<j], as: UTF8.self)
                i = j
                continue
            }
            if bytes[i...].starts(with: Array("<!--".utf8)) {
                guard let end = find(Array("-->".utf8), in: bytes, from: i) else { throw unclosed("comment") }
                i = end + 3
                continue
            }
            guard let close = bytes[i...].firstIndex(of: UInt8(ascii: ">")) else { throw unclosed("tag") }
            let inside = String(decoding: bytes[(i + 1)..<close], as: UTF8.self)
            i = close + 1
            if inside.hasPrefix("?") || inside.hasPrefix("!") { continue }
            if inside.hasPrefix("/") {
                let name = inside.dropFirst().trimmingCharacters(in: .whitespaces)
                guard stack.count > 1, stack[stack.count - 1].name == name else {
                    throw HaarCascade.ReadError("</\(name)> closes no open element")
                }
                let done = stack.removeLast()
                stack[stack.count - 1].children.append(done)
                continue
            }
            let empty = inside.hasSuffix("/")
            let name = String(inside.split(whereSeparator: { $0.isWhitespace || $0 == "/" }).first ?? "")
            if empty {
                stack[stack.count - 1].children.append(XMLElementTree(name: name))
            } else {
                stack.append(XMLElementTree(name: name))
            }
        }
        guard stack.count == 1 else { throw unclosed("<\(stack[stack.count - 1].name)>") }
        return stack[0].children.first ?? stack[0]
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + needle.count <= bytes.count {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private static func unclosed(_ what: String) -> HaarCascade.ReadError {
        HaarCascade.ReadError("unclosed \(what)")
    }
}
