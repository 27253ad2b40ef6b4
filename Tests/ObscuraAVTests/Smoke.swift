import Testing
import ObscuraAV

@Test func obscuraAVBuilds() {
    #expect(Bool(true))
}
