import Foundation
import Imaging
import Scenes

extension Renderer {
    /// The largest turn of the device between the two frames of `render(_:_:turnedTo:)`, radians (0.5°): within
    /// it the flash, which turns with the device, lights each surface as it did (its beam moves by under 1 %
    /// of its width), and the lens's shading at a pixel's source stays within a fraction of a percent of its own.
    public static let largestSharedTurn = 0.5 * Double.pi / 180

    /// The largest move of the camera's optical centre between the two frames, metres (1 mm): the parallax it
    /// brings is taken from the first frame's depth, which holds away from occlusion edges.
    public static let largestSharedMove = 0.001

    /// Two exposures of one geometry pass, the second seen by the camera after the device turned to its placement
    /// in `later` (a hand's small turn between a pair of frames): this renderer's frame of `first`, then the
    /// frame of `second` that `Renderer(scene: later, …).render(second)` approximates.
    ///
    /// Each pixel of the second frame takes the mean signal of the point it shows in the first frame's image
    /// (`TurnedView`), interpolated bilinearly between the four pixel centres around it, before its own noise
    /// chain and fixed pattern: the geometry is traced once, and the second frame shows the scene shifted by the
    /// turn to a fraction of a pixel. Interpolation spreads a sharp edge over the two pixels it falls between, as
    /// a pixel's area does; a frame traced anew samples it at the pixel centres. Pixels whose source lies
    /// beyond the first frame's edge take the nearest edge pixel's value. The truth planes (depth, ids) of the
    /// second frame are those of the nearest first-frame pixel.
    ///
    /// Nil when the renderer has a `focus` (depth of field blurs each frame's means before its noise), when
    /// `later` differs from this renderer's scene by more than the device's placement, or when the turn or the
    /// move exceeds `largestSharedTurn` or `largestSharedMove`: such a pair needs a renderer of its own.
    public func render(_ first: Exposure, _ second: Exposure, turnedTo later: Scene) -> (RawFrame, RawFrame)? {
        render(first, second, turnedTo: later, path: .fast)
    }

    /// `render(_:_:turnedTo:)` by the fast shading kernel or by the plain reference it is tested against.
    package func render(_ first: Exposure, _ second: Exposure, turnedTo later: Scene, path: KernelPath)
        -> (RawFrame, RawFrame)?
    {
        guard focus == nil, later.objects == scene.objects, later.ambient == scene.ambient, later.lights == scene.lights
        else {
            return nil
        }
        let turned = Renderer.pose(of: camera, in: later)
        guard (turned.origin - origin).length <= Self.largestSharedMove,
            Self.turn(from: rotation, to: turned.rotation) <= Self.largestSharedTurn
        else { return nil }
        let view = TurnedView(camera: camera, earlier: (origin, rotation), later: turned)
        let pixels = camera.width * camera.height
        let width = camera.width
        var planesA = Planes(pixels: pixels, options: options)
        var planesB = Planes(pixels: pixels, options: options)
        var sumsA = BandSums(bands: bandCount, kept: planesA.keepsMeans)
        var sumsB = BandSums(bands: bandCount, kept: planesB.keepsMeans)
        // The second frame's truth planes, when the frames keep them (`RenderOptions.keepsTruth`).
        let truthPixels = options.keepsTruth ? pixels : 0
        var depth: [Float] = Planes.uninitialized(truthPixels)
        var objects: [UInt16] = Planes.uninitialized(truthPixels)
        var materials: [UInt16] = Planes.uninitialized(truthPixels)
        let keepsTruth = options.keepsTruth
        let a = ShadingPass(renderer: self, exposure: first)
        let b = ShadingPass(renderer: self, exposure: second)
        depth.withUnsafeMutableBufferPointer { dp in
            objects.withUnsafeMutableBufferPointer { op in
                materials.withUnsafeMutableBufferPointer { mp in
                    let truth =
                        keepsTruth
                        ? ShadingPass.Truth(
                            depth: SharedPointer(dp), objects: SharedPointer(op), materials: SharedPointer(mp))
                        : nil
                    planesA.withOutput { oa in
                        planesB.withOutput { ob in
                            sumsA.withRecorder { ra in
                                sumsB.withRecorder { rb in
                                    forEachBand { band, rows in
                                        Self.shade(oa, rows: rows, width: width, ra, band) { bandA in
                                            Self.shade(ob, rows: rows, width: width, rb, band) { bandB in
                                                ShadingPass.runTurnedPair(
                                                    a, b, view: view, rows: rows, outputs: (bandA, bandB), truth: truth,
                                                    path: path)
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return (
            frame(first, planesA, sumsA.means(pixels: pixels)),
            frame(second, planesB, sumsB.means(pixels: pixels), truth: (depth, objects, materials))
        )
    }

    /// The angle of the rotation taking `a` to `b`, radians: from the trace of aᵀb, 1 + 2 cos θ.
    static func turn(from a: Rotation, to b: Rotation) -> Double {
        let relative = a.inverse * b
        let axes = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]
        let trace = axes.reduce(0.0) { $0 + $1.dot(relative.apply($1)) }
        return acos(min(max((trace - 1) / 2, -1), 1))
    }
}
