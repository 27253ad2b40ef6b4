import Foundation
import Imaging

// The filters that read a neighbourhood of each pixel: convolutions with given weights, morphology, the median,
// the disc, motion and zoom blurs, edges and noise reduction.

extension FilterDefinition {
    static let neighbourhood: [FilterDefinition] = []
}
