// Sources/Obscura/Obscura.docc/TestingOnLinux.md:192, copied verbatim by DocumentationTests. Edit the document,
// then copy it again: OBSCURA_UPDATE_DOC_EXAMPLES=1 swift test --filter DocumentationExampleTests

import AVFoundation
import ObscuraTesting
import Testing

@Test(.obscura(device: "ipad-10th-gen", scene: "hand-on-desk", seed: 7, clock: .manual))
func aFlashlessIPadOffersNoFlash() throws {
    let taker = PhotoTaker()
    try taker.configure()
    #expect(taker.output.supportedFlashModes == [.off])
}
