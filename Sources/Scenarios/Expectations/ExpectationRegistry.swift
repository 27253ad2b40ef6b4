/// The expectations a step may carry. Adding one: write its type, then list it here.
public enum ExpectationRegistry {
    /// Every expectation this build can check.
    public static let expectations: [any Expectation.Type] = [
        ExceptionExpectation.self,
        CallbacksExpectation.self,
        PhotoCountExpectation.self,
        PhotosExpectation.self,
        PropertiesExpectation.self,
        NotificationsExpectation.self,
        RegionExpectation.self,
        DepthExpectation.self,
        CalibrationExpectation.self,
        FramesExpectation.self,
        DepthRateExpectation.self,
        SynchronizedExpectation.self,
        ScanExpectation.self,
        OutsideSRGBExpectation.self,
    ]

    /// Every key `expect:` accepts, for "did you mean".
    static var allKeys: [String] { expectations.flatMap { $0.keys } }
}
