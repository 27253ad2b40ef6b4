import Foundation

/// The part of a constituent photo that lies inside the preview of a zoomed virtual device.
///
/// The preview of a virtual device at zoom z has the field of view of its rendering camera's
/// focal length times z. A constituent with focal length f_c (normalised by its width) sees the
/// preview in the centred share f_c / (f_v · z) of its width and height, or all of it when that
/// share is 1 or more. The small parallax of the baseline is neglected (our choice [I]).
enum PhotoCleanAperture {
    /// The integer pixel rectangle: origin and size rounded to whole pixels.
    struct Rect: Hashable {
        let x: Int, y: Int, width: Int, height: Int

        func contains(x px: Int, y py: Int) -> Bool { px >= x && py >= y && px < x + width && py < y + height }

        var cgRect: CGRect { CGRect(x: x, y: y, width: width, height: height) }
    }

    static func rect(width: Int, height: Int, fraction: Double) -> Rect {
        let f = min(max(fraction, 0), 1)
        let w = Int((Double(width) * f).rounded()), h = Int((Double(height) * f).rounded())
        return Rect(x: (width - w) / 2, y: (height - h) / 2, width: w, height: h)
    }

    /// f_c / (f_v · z), capped at 1; each focal length in pixels over its reference width.
    static func visibleFraction(constituentFocal: Double, virtualFocal: Double, zoom: Double) -> Double {
        guard constituentFocal > 0, virtualFocal > 0, zoom > 0 else { return 1 }
        return min(1, constituentFocal / (virtualFocal * zoom))
    }
}
