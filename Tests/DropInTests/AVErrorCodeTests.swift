import Foundation
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
                (.torchLevelUnavailable, -11846), (.applicationIsNotAuthorizedToUseDevice, -11852),
                (.sessionHardwareCostOverage, -11872),
            ]
            for (code, raw) in expected { #expect(code.rawValue == raw, "\(code)") }
        }

        @Test func bridgesToNSErrorWithTheDomainAndCode() {
            let error = AVError(.sessionConfigurationChanged) as NSError
            #expect(error.domain == AVFoundationErrorDomain)
            #expect(error.code == -11806)
        }

        // A runtime-error notification's error, read as popular ports read it: `as? NSError`, `as! NSError`
        // and `as? AVError` all see Apple's domain, code and userInfo.
        @Test func aNotificationsErrorCastsBothWays() throws {
            let cause = AVError(.mediaServicesWereReset, userInfo: [AVErrorRecordingSuccessfullyFinishedKey: false])
            let notification = Notification(
                name: .AVCaptureSessionRuntimeError, object: nil, userInfo: [AVCaptureSessionErrorKey: cause])
            let ns = try #require(notification.userInfo?[AVCaptureSessionErrorKey] as? NSError)
            #expect(ns.domain == AVFoundationErrorDomain && ns.code == -11819)
            #expect(ns.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool == false)
            let forced = notification.userInfo![AVCaptureSessionErrorKey] as! NSError
            #expect(forced.code == AVError.Code.mediaServicesWereReset.rawValue)
            let av = try #require(notification.userInfo?[AVCaptureSessionErrorKey] as? AVError)
            #expect(av.code == .mediaServicesWereReset)
            // And an NSError of the domain, as Apple posts it, reads as an AVError.
            let posted: [AnyHashable: Any] = [AVCaptureSessionErrorKey: NSError(domain: AVFoundationErrorDomain, code: -11819)]
            #expect((posted[AVCaptureSessionErrorKey] as? AVError)?.code == .mediaServicesWereReset)
            #expect((posted[AVCaptureSessionErrorKey] as? NSError)?.code == -11819)
            let other: [AnyHashable: Any] = [AVCaptureSessionErrorKey: NSError(domain: NSCocoaErrorDomain, code: 4)]
            #expect(other[AVCaptureSessionErrorKey] as? AVError == nil)
        }
    }
}
