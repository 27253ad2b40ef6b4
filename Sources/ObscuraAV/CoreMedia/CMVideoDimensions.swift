/// Video dimensions in pixels (CoreMedia's `CMVideoDimensions`, a C struct of two `Int32`).
///
/// Like Apple's, it is not `Equatable`, so that code which adds that conformance still compiles.
public struct CMVideoDimensions: Sendable {
    public var width: Int32
    public var height: Int32
    /// Zero by zero.
    public init() {
        width = 0
        height = 0
    }
    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }
}

extension CMVideoDimensions {
    func same(as other: CMVideoDimensions) -> Bool { width == other.width && height == other.height }
    var area: Int { Int(width) * Int(height) }
}
