import Devices

/// Depth map sizes that follow from the video format.
public enum DepthResolution {
    /// Photo-time depth: more than twice the streaming resolution, same aspect ratio
    /// (spec §7 [T W17]). Our factor [I] is 2.4, which takes the 320×240 stream of a 4:3 format to
    /// 768×576; sizes round to even numbers.
    public static func photo(streaming: Dimensions) -> Dimensions {
        func even(_ v: Int) -> Int { Int((Double(v) * 2.4 / 2).rounded()) * 2 }
        return Dimensions(width: even(streaming.width), height: even(streaming.height))
    }
}
