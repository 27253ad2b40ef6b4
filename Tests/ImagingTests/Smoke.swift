import Testing
import Imaging

@Test func ImagingBuilds() {
    #expect(Bool(true))
}
