// Swift example 2 of Sources/Obscura/Obscura.docc/TestingOnLinux.md, copied verbatim by DocumentationTests (no
// line number, so prose edits above it leave the copy as it is). Edit the document, then copy it
// again: OBSCURA_UPDATE_DOC_EXAMPLES=1 swift test --filter DocumentationExampleTests

import AVFoundation
import Obscura
import Testing

@Test func aFlashlessIPadRefusesFlashOn() throws {
    try Emulator.shared.withDevice("ipad-10th-gen") {
        try Emulator.shared.use(scene: "hand-on-desk")
        let taker = PhotoTaker()
        try taker.configure()
        taker.session.startRunning()
        defer { taker.session.stopRunning() }
        #expect(taker.output.supportedFlashModes == [.off])
    }
}
