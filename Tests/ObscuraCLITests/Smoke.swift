import Testing
import ObscuraCLI

@Test func ObscuraCLIBuilds() {
    #expect(Bool(true))
}
