import Foundation
import Imaging

// The non-separable and further blend modes, the colour polynomials and colour map, pattern and noise generators,
// and the row, column and histogram reductions.

extension FilterDefinition {
    static let colourMore: [FilterDefinition] = []
}
