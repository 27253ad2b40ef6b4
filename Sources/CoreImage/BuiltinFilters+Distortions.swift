import Foundation
import Imaging

// The distortion filters (twirl, bump, pinch, hole, vortex, circle splash), straightening, and the affine clamp
// and tile.

extension FilterDefinition {
    static let distortions: [FilterDefinition] = []
}
