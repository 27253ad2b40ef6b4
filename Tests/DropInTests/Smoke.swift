import Testing
import AVFoundation

@Test func dropInBuilds() {
    #expect(Bool(true))
}
