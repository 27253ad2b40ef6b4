// Swift example 3 of Sources/Obscura/Obscura.docc/TestingOnLinux.md, copied verbatim by DocumentationTests (no
// line number, so prose edits above it leave the copy as it is). Edit the document, then copy it
// again: OBSCURA_UPDATE_DOC_EXAMPLES=1 swift test --filter DocumentationExampleTests

import AVFoundation
import ObscuraTesting
import Testing

@Test(.obscura(device: "ipad-10th-gen", scene: "hand-on-desk", seed: 7, clock: .manual))
func aFlashlessIPadOffersNoFlash() throws {
    let taker = PhotoTaker()
    try taker.configure()
    #expect(taker.output.supportedFlashModes == [.off])
}
