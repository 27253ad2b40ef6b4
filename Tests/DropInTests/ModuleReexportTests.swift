import AVFoundation
import Testing

// This file imports AVFoundation alone, as much iOS capture code does: Foundation, CoreMedia, CoreVideo and
// QuartzCore names must come with it, as they do from the SDK's module (spec §18.5 [D]).

extension DropIn {
    @Suite struct ModuleReexportTests {
        @Test func avFoundationBringsFoundationCoreMediaCoreVideoAndQuartzCore() {
            let url = URL(fileURLWithPath: "/tmp/clip.mov")
            let data = Data([1, 2, 3])
            let object = NSObject()
            let time = CMTime(value: 3, timescale: 2)
            var buffer: CVPixelBuffer?
            let status = CVPixelBufferCreate(kCFAllocatorDefault, 8, 8, kCVPixelFormatType_32BGRA, nil, &buffer)
            let layer = CALayer()
            #expect(url.lastPathComponent == "clip.mov" && data.count == 3 && object.description.isEmpty == false)
            #expect(time.seconds == 1.5)
            #expect(status == kCVReturnSuccess && buffer != nil)
            #expect(layer.sublayers == nil)
        }
    }
}
