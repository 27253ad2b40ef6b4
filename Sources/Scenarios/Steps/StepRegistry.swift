/// The steps a scenario may use. Adding a step: write its type, then list it here.
public enum StepRegistry {
    /// Every step this build can run, in the order the documentation lists them.
    public static let steps: [any ScenarioStep.Type] = [
        SessionStep.self,
        BeginConfigurationStep.self,
        CommitConfigurationStep.self,
        InputStep.self,
        OutputStep.self,
        PhotoOutputStep.self,
        DepthOutputStep.self,
        ConnectionStep.self,
        LockStep.self,
        UnlockStep.self,
        DeviceStep.self,
        StartRunningStep.self,
        StopRunningStep.self,
        CaptureStep.self,
        StreamStep.self,
        SynchronizerStep.self,
        SceneLightStep.self,
        SceneObjectStep.self,
        InterruptStep.self,
        EndInterruptionStep.self,
        ImageScanStep.self,
        ImageWideGamutStep.self,
        ImageBlendStep.self,
        DepthConvertStep.self,
    ]

    /// The step type for a key.
    static func type(for key: String) -> (any ScenarioStep.Type)? {
        steps.first { $0.key == key }
    }

    /// Every key a step may start with, for "did you mean".
    static var allKeys: [String] { steps.map { $0.key } }
}
