import Foundation

/// A layer that shows a player's video (`AVPlayerLayer`): its geometry and readiness, as apps lay out a clip's
/// preview (Capture rules §25 rule 13). Nothing is drawn here.
open class AVPlayerLayer: CALayer, @unchecked Sendable {
    private let state = NSLock()
    private var shown: AVPlayer?
    private var gravity = AVLayerVideoGravity.resizeAspect

    /// A layer showing `player`'s video.
    public convenience init(player: AVPlayer?) {
        self.init()
        self.player = player
    }

    /// A layer with no player.
    public required init() { super.init() }

    /// A copy of another layer's geometry (Core Animation's presentation copies).
    public override init(layer: Any) { super.init(layer: layer) }

    /// The player whose video the layer shows.
    open var player: AVPlayer? {
        get { state.withLock { shown } }
        set { state.withLock { shown = newValue } }
    }

    /// How the video fills the bounds (`.resizeAspect` by default).
    open var videoGravity: AVLayerVideoGravity {
        get { state.withLock { gravity } }
        set { state.withLock { gravity = newValue } }
    }

    /// Whether the player's current item is ready, so that a picture would be on screen.
    open var isReadyForDisplay: Bool { player?.currentItem?.status == .readyToPlay }

    /// Where the video lies in the layer: the item's presentation size laid out in the bounds by the gravity (the
    /// bounds themselves for `.resize`); zero until the item is ready.
    open var videoRect: CGRect {
        guard let size = player?.currentItem?.presentationSize, size.width > 0, size.height > 0 else { return .zero }
        return videoGravity == .resize
            ? bounds : AspectLayout.centred(size, in: bounds, filling: videoGravity == .resizeAspectFill)
    }

    /// The pixel buffer attributes of the pictures shown (nil: the decoder's own).
    open var pixelBufferAttributes: [String: Any]?
}
