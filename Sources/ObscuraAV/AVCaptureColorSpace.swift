import Devices

/// A capture colour space (spec §2.6 [D]: sRGB = 0, P3_D65 = 1, HLG_BT2020 = 2, appleLog = 3).
public enum AVCaptureColorSpace: Int, Sendable, Hashable {
    case sRGB = 0
    case P3_D65 = 1
    case HLG_BT2020 = 2
    case appleLog = 3

    init(_ space: CaptureColorSpace) {
        switch space {
        case .sRGB: self = .sRGB
        case .P3_D65: self = .P3_D65
        case .HLG_BT2020: self = .HLG_BT2020
        case .appleLog: self = .appleLog
        }
    }
}
