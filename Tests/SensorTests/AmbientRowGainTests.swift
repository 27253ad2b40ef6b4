import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// Per-row ambient gains (`Exposure.ambientRowGains`, a lamp's flicker seen through a rolling shutter): steady
/// light keeps its bytes, each row's room light is scaled by its gain while the flash is not, and the frames do not
/// depend on the number of threads.
struct AmbientRowGainTests {
    let paired = PairedRenderTests()

    func renderer(threads: Int) -> Renderer { paired.renderer(options: RenderOptions(threadCount: threads)) }

    @Test func gainsOfOneKeepTheBytes() {
        let r = renderer(threads: 2)
        let steady = Exposure(time: 0.004, iso: 200, flash: true, seed: 9, frameIndex: 1)
        var ones = steady
        ones.ambientRowGains = [Float](repeating: 1, count: r.camera.height)
        #expect(r.render(steady).dn == r.render(ones).dn)
        #expect(r.render([steady, steady]).map(\.dn) == r.render([ones, ones]).map(\.dn))
    }

    @Test(arguments: [1, 5]) func eachRowsRoomLightIsScaledAndTheFlashIsNot(threads: Int) {
        let r = renderer(threads: threads)
        let height = r.camera.height, width = r.camera.width
        let gains = (0..<height).map { Float(1 + 0.1 * sin(Double($0) * 0.3)) }
        let steady = Exposure(time: 0.004, iso: 200, flash: true, seed: 9, frameIndex: 1)
        var flickering = steady
        flickering.ambientRowGains = gains
        let a = r.render(steady), b = r.render(flickering)
        for y in stride(from: 0, to: height, by: 7) {
            for x in stride(from: 0, to: width, by: 11) {
                for c in 0..<3 {
                    let i = (y * width + x) * 3 + c
                    #expect(b.ambientElectrons![i] == a.ambientElectrons![i] * gains[y])
                    #expect(b.flashElectrons![i] == a.flashElectrons![i])
                }
            }
        }
        // Rendered as a pair (the shared ambient sum), the same frames.
        let pair = r.render([steady, flickering])
        #expect(pair[1].dn == b.dn && pair[0].dn == a.dn)
        #expect(renderer(threads: 3).render(flickering).dn == b.dn)
    }
}
