/// Von Kries-type chromatic adaptation transforms in a sharpened cone space
/// (Bradford: Lam 1985, as used in ICC.1 Annex E; CAT02: CIE 159:2004, the CIECAM02 transform).
public enum ChromaticAdaptation {
    /// The cone-response matrix used for the von Kries scaling.
    public enum Method: String, CaseIterable, Sendable {
        case bradford, cat02

        /// XYZ → sharpened cone responses.
        public var coneMatrix: Matrix3 {
            switch self {
            case .bradford:
                return Matrix3(rows: [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])
            case .cat02:
                return Matrix3(rows: [[0.7328, 0.4296, -0.1624], [-0.7036, 1.6975, 0.0061], [0.0030, 0.0136, 0.9834]])
            }
        }
    }

    /// The full XYZ → XYZ matrix M⁻¹·diag(ρd/ρs)·M, which maps the source white exactly onto the
    /// destination white (complete adaptation, D = 1).
    public static func matrix(from source: XYZ, to destination: XYZ, method: Method = .bradford) -> Matrix3 {
        let m = method.coneMatrix
        let s = m * source.vector
        let d = m * destination.vector
        guard let inverse = m.inverse else { preconditionFailure("cone matrices are invertible") }
        return inverse * Matrix3.diagonal(d / s) * m
    }

    /// Tristimulus values seen under `source` white, adapted to `destination` white.
    public static func adapt(_ xyz: XYZ, from source: XYZ, to destination: XYZ, method: Method = .bradford) -> XYZ {
        XYZ(matrix(from: source, to: destination, method: method) * xyz.vector)
    }
}
