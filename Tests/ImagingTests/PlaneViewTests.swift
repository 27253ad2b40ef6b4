import Imaging
import Testing

@Suite struct PlaneViewTests {
    @Test func viewSharesTheParentsBuffer() {
        let plane = sampleImage(width: 10, height: 8, channels: 3)
        let view = plane.view(x: 2, y: 3, width: 4, height: 2)
        let planeBase = plane.withUnsafeBufferPointer { $0.baseAddress }
        let viewBase = view.withUnsafeBufferPointer { $0.baseAddress }
        // No copy: the view's first element is the parent's element (2, 3, 0).
        #expect(viewBase == planeBase.map { $0 + 3 * plane.rowStride + 2 * 3 })
        #expect(view.rowStride == plane.rowStride)
        #expect(view.withUnsafeBufferPointer { $0.count } == plane.rowStride + 4 * 3)
        #expect(view[1, 1, 2] == plane[3, 4, 2])
        let parentRow = Array(plane.row(4))
        #expect(Array(view.row(1)) == Array(parentRow[6..<18]))
    }

    @Test func subViewsCompose() {
        let plane = sampleImage(width: 10, height: 8, channels: 2)
        let inner = plane.view(x: 1, y: 1, width: 8, height: 6).view(x: 2, y: 3, width: 3, height: 2)
        #expect(inner[2, 1, 1] == plane[5, 5, 1])
    }

    @Test func viewIsASnapshotWhenTheParentChanges() {
        var plane = sampleImage(width: 6, height: 6, channels: 1)
        let view = plane.view(x: 0, y: 0, width: 3, height: 3)
        let before = view.makePlane()
        plane[1, 1] = 255 &- plane[1, 1]
        #expect(view.makePlane() == before)
        #expect(plane[1, 1] != view[1, 1])
    }

    @Test func pasteWritesARegion() {
        var plane = UInt8Image(width: 5, height: 4, channels: 1)
        let patch = UInt8Image(width: 2, height: 2, elements: [1, 2, 3, 4])
        plane.paste(patch.fullView, x: 3, y: 2)
        #expect(plane.packedElements == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 3, 4])
        // Pasting a view of the plane onto itself reads before it writes.
        plane.paste(plane.view(x: 3, y: 2, width: 2, height: 2), x: 2, y: 2)
        #expect(Array(plane.row(2)) == [0, 0, 1, 2, 2])
        #expect(Array(plane.row(3)) == [0, 0, 3, 4, 4])
        plane._checkInvariants()
    }
}
