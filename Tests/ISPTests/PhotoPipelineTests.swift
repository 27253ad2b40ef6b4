import Devices
import Foundation
import ISP
import Imaging
import Scenes
import Sensor
import Testing

/// The ordinary photo pipeline: its fast develop against the plain statement, and its bytes at
/// every thread count.
struct PhotoPipelineTests {
    static let width = 320, height = 240

    /// violets-warm-room through the iPhone 15 Pro wide camera, flash available.
    static func pipeline(threads: Int? = nil, options: RenderOptions? = nil) throws -> PhotoPipeline {
        let profile = try ConstantColorFixture.device()
        let cameraProfile = try profile.camera(ofType: .builtInWideAngleCamera)
        let scene = try ConstantColorSceneTests.scene("violets-warm-room")
        let camera = try CameraModel(device: profile, camera: cameraProfile, width: width, height: height)
        let m = PhotoPipeline.meteringSize(width: width, height: height)
        let metering = try CameraModel(device: profile, camera: cameraProfile, width: m.width, height: m.height)
        let flash = FlashModel(device: profile, camera: cameraProfile)
        return PhotoPipeline(
            renderer: Renderer(
                scene: scene, camera: camera, flash: flash, options: options ?? RenderOptions(threadCount: threads)),
            meteringRenderer: Renderer(scene: scene, camera: metering, flash: flash),
            flashHardware: profile.flash)
    }

    /// A picture rendered without its noise-free component planes, keeping only their means (as
    /// `obscura render` does to save memory), has the same white balance and bytes as one that keeps
    /// the planes; without even the means the known-lights balance has nothing to weigh and is D65's.
    @Test func componentMeansAloneGiveThePhotoOfTheFullFrame() throws {
        let settings = PhotoPipeline.Settings(whiteBalance: .knownLights, flash: true, seed: 3)
        let full = try Self.pipeline().run(settings)
        let lean = try Self.pipeline(
            options: RenderOptions(keepsComponents: false, keepsElectrons: false, keepsComponentMeans: true)
        ).run(settings)
        #expect(lean.frame.ambientElectrons == nil && lean.frame.flashElectrons == nil)
        #expect(lean.whiteBalance.gains == full.whiteBalance.gains)
        #expect(lean.pixels == full.pixels)
        let bare = try Self.pipeline(options: RenderOptions(keepsComponents: false)).run(settings)
        #expect(bare.whiteBalance.gains != full.whiteBalance.gains)
        #expect(bare.pixels != full.pixels)
    }

    /// The table-driven develop equals the reference (tone curve and transfer function evaluated per
    /// component in Double) to within one code; the thresholds are exact for monotonic curves, so
    /// in practice every component is equal. Dark, metered and over-exposed frames in both output
    /// spaces cover the whole code range, the highlight shoulder and clipped pixels.
    @Test func fastDevelopMatchesTheReference() throws {
        let pipeline = try Self.pipeline()
        let metered = pipeline.meteredExposure(bias: 0, flash: true, seed: 5)
        var codes = Set<UInt8>()
        for scale in [0.05, 1.0, 6.0] {
            let exposure = Exposure(time: metered.time * scale, iso: metered.iso, flash: true, seed: 5)
            let frame = pipeline.renderer.render(exposure)
            let balance = pipeline.whiteBalance(frame, .knownLights)
            for space in BasicDevelop.OutputSpace.allCases {
                let develop = BasicDevelop(
                    camera: pipeline.renderer.camera, whiteBalance: balance,
                    settings: .init(outputSpace: space, warmthRetention: 0.2))
                let fast = develop.developBytes(frame).packedElements
                let reference = develop.developReference(frame, as: UInt8.self).packedElements
                #expect(fast.count == reference.count)
                var differing = 0, largest = 0
                for (a, b) in zip(fast, reference) where a != b {
                    differing += 1
                    largest = max(largest, abs(Int(a) - Int(b)))
                }
                #expect(largest <= 1, "scale \(scale), \(space): largest difference \(largest)")
                #expect(differing <= fast.count / 10_000, "scale \(scale), \(space): \(differing) differ")
                codes.formUnion(reference)
            }
        }
        // The frames exercise (nearly) every code, so a wrong threshold would show.
        #expect(codes.count >= 240, "\(codes.count) distinct codes")
    }

    /// Rendering and developing with one worker or two gives the same bytes: bands write only
    /// their own rows, and no reduction depends on the split.
    @Test func sameBytesAtEveryThreadCount() throws {
        var outputs: [[UInt8]] = []
        for threads in [1, 2, 3] {
            let pipeline = try Self.pipeline(threads: threads)
            let photo = pipeline.run(.init(flash: true, seed: 9, threads: threads))
            outputs.append(photo.pixels.packedElements)
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0] == outputs[2])
        // Not a blank picture, so equality means something.
        #expect(Set(outputs[0]).count > 100)
    }

    /// The worker count: `OBSCURA_THREADS` when it is a positive integer, else the processors the
    /// process may use; cgroup quotas read as quota ÷ period.
    @Test func workerCountFollowsTheEnvironment() {
        #expect(WorkerCount.resolve(environment: ["OBSCURA_THREADS": "3"]) == 3)
        #expect(WorkerCount.resolve(environment: ["OBSCURA_THREADS": " 1 "]) == 1)
        let machine = WorkerCount.resolve(environment: [:])
        #expect(machine >= 1)
        #expect(WorkerCount.resolve(environment: ["OBSCURA_THREADS": "0"]) == machine)
        #expect(WorkerCount.resolve(environment: ["OBSCURA_THREADS": "many"]) == machine)
        #expect(WorkerCount.parseCPUMax("150000 100000\n") == 1.5)
        #expect(WorkerCount.parseCPUMax("max 100000\n") == nil)
        #expect(WorkerCount.parseCPUMax("-1 100000") == nil)
    }

    /// The `.auto` flash rule states the ISO auto-exposure would need at 1/15 s: auto-exposure
    /// fixes time × ISO, so that ISO is the metered product × 15. violets-warm-room is lit at 150
    /// lux, well above the some 30 lux where ISO 400 at 1/15 s falls, so the flash stays off.
    @Test func autoFlashUsesTheAutoExposureProduct() throws {
        let pipeline = try Self.pipeline()
        let decision = pipeline.autoFlash(seed: 1)
        let metered = pipeline.meteredExposure(bias: 0, flash: false, seed: 1)
        let product = metered.time * metered.iso
        #expect(abs(decision.isoAtHandHeldLimit - product / PhotoPipeline.handHeldLimit) <= 1e-9 * product * 15)
        #expect(!decision.fires)
    }
}
