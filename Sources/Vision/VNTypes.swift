import Foundation
import ObscuraAV

/// A confidence, 0 (none) to 1 (full) (`VNConfidence`).
public typealias VNConfidence = Float

/// A rectangle's shorter side over its longer side, 0 to 1 (`VNAspectRatio`).
public typealias VNAspectRatio = Float

/// An angle in degrees (`VNDegrees`).
public typealias VNDegrees = Float

/// Called when a request has been performed, with the request (its `results` set) or the error that stopped it
/// (`VNRequestCompletionHandler`).
public typealias VNRequestCompletionHandler = (VNRequest, (any Error)?) -> Void

/// Called as a long request progresses, with the request, the fraction done (0…1) and nil, or the error that stopped
/// it (`VNRequestProgressHandler`).
public typealias VNRequestProgressHandler = (VNRequest, Double, (any Error)?) -> Void

/// A request that reports its progress while it runs (`VNRequestProgressProviding`), on the thread performing it
/// (spec §22.4 rule 17).
public protocol VNRequestProgressProviding: NSObjectProtocol {
    /// Called with the fraction done as the request runs: fractions that only grow, the last 1 when it finishes.
    var progressHandler: VNRequestProgressHandler { get set }
    /// Whether the request cannot tell how far it has come; the handler is called either way.
    var indeterminate: Bool { get }
}

/// The rectangle that covers a whole image in normalised coordinates (`VNNormalizedIdentityRect`).
public let VNNormalizedIdentityRect = CGRect(x: 0, y: 0, width: 1, height: 1)

/// An option of an image request handler (`VNImageOption`).
///
/// Options are kept as given. The rectangle detector uses none of them: it needs neither the image's
/// properties nor the camera intrinsics.
public struct VNImageOption: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The image's properties dictionary (`VNImageOption.properties`).
    public static let properties = VNImageOption(rawValue: "VNImageOptionProperties")
    /// The camera intrinsics, a `matrix_float3x3` in `Data` (`VNImageOption.cameraIntrinsics`).
    public static let cameraIntrinsics = VNImageOption(rawValue: "VNImageOptionCameraIntrinsics")
}
