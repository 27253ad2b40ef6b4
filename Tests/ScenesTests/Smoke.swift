import Testing
import Scenes

@Test func ScenesBuilds() {
    #expect(Bool(true))
}
