import Testing
import Spectra

@Test func SpectraBuilds() {
    #expect(Bool(true))
}
