import Foundation
import ObscuraAV

/// What one step did: the exception it raised, the captures it made, the notifications posted,
/// and the observable state before and after.
public struct StepOutcome: @unchecked Sendable {
    /// An `NSException` the API raised, with the rule behind it.
    public struct RaisedException: Sendable, Codable {
        /// `NSInvalidArgumentException`, `NSGenericException`, …
        public let name: String
        /// Apple's reason text.
        public let reason: String
        /// The spec rule that fired (`spec §3.2 rule 24 [D]: …`), when the API recorded one.
        public let rule: String?
    }

    /// The exception, if the API raised one.
    public let exception: RaisedException?
    /// A problem of the scenario itself (an output that does not exist, a device missing).
    public let failure: String?
    /// Photo requests made by the step.
    let captures: [CaptureRecord]
    /// Session notifications posted during the step.
    public let notifications: [String]
    /// Observable state before the step.
    public let before: [String: String]
    /// Observable state after the step.
    public let after: [String: String]
    /// What the data outputs and the synchronizer delivered during the step, in order.
    let deliveries: [StreamRecord.Delivery]

    /// All callbacks of all the step's captures, in order.
    var callbackNames: [String] { captures.flatMap { $0.events.map(\.name) } }
    /// All photos of the step's captures, in delivery order.
    var photos: [AVCapturePhoto] { captures.flatMap { $0.photos } }
}
