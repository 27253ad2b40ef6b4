import Foundation
import Imaging

// The stylizing filters: bloom and gloom, highlight and shadow adjustment, cell pixellations and halftone screens.

extension FilterDefinition {
    static let stylizeMore: [FilterDefinition] = []
}
