import Testing
import ISP

@Test func ispBuilds() {
    #expect(Bool(true))
}
