import Testing
import Devices

@Test func DevicesBuilds() {
    #expect(Bool(true))
}
