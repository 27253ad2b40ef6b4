import AVFoundation
import Testing

extension DropIn {
    /// Apps compare `(error as NSError).code` and `AVError.Code` raw values with the numbers of Apple's
    /// header, which counts down from −11800; these are the ones the emulator reports.
    @Suite struct AVErrorCodeTests {
        @Test func codesAreApples() {
            let expected: [(AVError.Code, Int)] = [
                (.unknown, -11800), (.outOfMemory, -11801), (.sessionNotRunning, -11803),
                (.deviceAlreadyUsedByAnotherSession, -11804), (.noDataCaptured, -11805),
                (.sessionConfigurationChanged, -11806), (.diskFull, -11807), (.maximumDurationReached, -11810),
                (.maximumFileSizeReached, -11811), (.deviceNotConnected, -11814), (.mediaServicesWereReset, -11819),
                (.fileAlreadyExists, -11823), (.encoderNotFound, -11834),
                (.applicationIsNotAuthorizedToUseDevice, -11852), (.sessionHardwareCostOverage, -11872),
            ]
            for (code, raw) in expected { #expect(code.rawValue == raw, "\(code)") }
        }

        @Test func bridgesToNSErrorWithTheDomainAndCode() {
            let error = AVError(.sessionConfigurationChanged) as NSError
            #expect(error.domain == AVFoundationErrorDomain)
            #expect(error.code == -11806)
        }
    }
}
