import Foundation
import Imaging

/// A rendered region: premultiplied RGBA in the working space, rows top first, packed.
final class Pixels: @unchecked Sendable {
    let width: Int
    let height: Int
    let base: UnsafeMutablePointer<SIMD4<Float>>

    /// Uninitialised pixels, for a pass that writes every one.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        base = .allocate(capacity: max(1, width * height))
    }

    deinit { base.deallocate() }

    func row(_ j: Int) -> UnsafeMutablePointer<SIMD4<Float>> { base + j * width }
}

/// What one evaluation of a recipe has prepared: the regions that nodes needing neighbourhoods
/// (warps, blurs, reductions) computed before the rows stream through.
final class RenderState: @unchecked Sendable {
    let context: RenderContext
    private let lock = NSLock()
    private var prepared: [Key: Pixels] = [:]
    private var values: [Key: SIMD4<Float>] = [:]
    private var sources: [Key: Region] = [:]

    struct Key: Hashable {
        let node: ObjectIdentifier
        let region: Region
    }

    init(context: RenderContext) { self.context = context }

    func pixels(_ node: AnyObject, _ region: Region) -> Pixels? {
        lock.withLock { prepared[Key(node: ObjectIdentifier(node), region: region)] }
    }

    func store(_ pixels: Pixels, _ node: AnyObject, _ region: Region) {
        lock.withLock { prepared[Key(node: ObjectIdentifier(node), region: region)] = pixels }
    }

    func value(_ node: AnyObject, _ region: Region) -> SIMD4<Float>? {
        lock.withLock { values[Key(node: ObjectIdentifier(node), region: region)] }
    }

    func store(_ value: SIMD4<Float>, _ node: AnyObject, _ region: Region) {
        lock.withLock { values[Key(node: ObjectIdentifier(node), region: region)] = value }
    }

    /// The part of its input a node prepared for `region`, where the node worked that out in `prepare`.
    func source(_ node: AnyObject, _ region: Region) -> Region? {
        lock.withLock { sources[Key(node: ObjectIdentifier(node), region: region)] }
    }

    func store(source: Region, _ node: AnyObject, _ region: Region) {
        lock.withLock { sources[Key(node: ObjectIdentifier(node), region: region)] = source }
    }
}
