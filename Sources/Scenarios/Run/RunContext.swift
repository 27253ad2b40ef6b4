import Foundation
import Imaging
import ObscuraAV
import Scenes

/// What a running scenario holds between steps: the session, the devices and outputs it made,
/// and what the current step delivered. Only the runner's thread and its catching threads touch
/// it, one at a time.
public final class RunContext: @unchecked Sendable {
    /// The scenario's session.
    public let session = AVCaptureSession()
    /// The scene the scenario runs in, for reference colours of its objects.
    public internal(set) var scene: Scene?
    /// The camera inputs added, newest last.
    public internal(set) var inputs: [AVCaptureDeviceInput] = []
    /// Outputs by the name the scenario gave them (`photo` unless named).
    public internal(set) var outputs: [String: AVCaptureOutput] = [:]
    /// Output names in the order they were made.
    public internal(set) var outputOrder: [String] = []
    /// Settings of earlier captures, for reuse (`reuse_settings: true`, spec §13 N1).
    var lastSettings: AVCapturePhotoSettings?
    /// Captures made by the current step.
    var captures: [CaptureRecord] = []
    /// Notifications posted by the session during the current step.
    var notifications: [String] = []
    /// The delegate of every data output and of the synchronizer; holds the current step's deliveries.
    let stream = StreamRecord()
    /// The synchronizer, once a `synchronizer` step made one.
    var synchronizer: AVCaptureDataOutputSynchronizer?
    /// Explanations a step adds for narration (why depth runs at 15 fps, what changed in the scene).
    var notes: [String] = []
    /// Images the step wrote itself (`image_*` steps' `save:`), so reports can show them.
    var savedImages: [ScenarioResult.SavedFile] = []
    /// The photos of the newest step that delivered any, for steps that work on captured images.
    var lastPhotos: [AVCapturePhoto] = []
    /// The result of the newest `depth_convert` step; nil before one, or when the API refused it.
    var convertedDepth: AVDepthData?
    /// What an image step of the current step measured, for its expectations.
    var imageResult: ImageStepResult?
    /// Where saved outputs go; nil when the run saves nothing.
    var outputDirectory: OutputDirectory?
    /// A private folder for files a step must make when the run saves nothing; removed with the context.
    private var scratchFolder: String?
    private var observers: [NSObjectProtocol] = []

    init() {
        let center = NotificationCenter.default
        let names: [NSNotification.Name] = [
            AVCaptureSession.runtimeErrorNotification, AVCaptureSession.didStartRunningNotification,
            AVCaptureSession.didStopRunningNotification, AVCaptureSession.wasInterruptedNotification,
            AVCaptureSession.interruptionEndedNotification,
        ]
        for name in names {
            let token = center.addObserver(forName: name, object: session, queue: nil) { [weak self] note in
                var text = note.name.rawValue
                if let error = note.userInfo?[AVCaptureSessionErrorKey] { text += " (\(error))" }
                self?.notifications.append(text)
            }
            observers.append(token)
        }
    }

    deinit {
        for token in observers { NotificationCenter.default.removeObserver(token) }
        if let scratchFolder { try? FileManager.default.removeItem(atPath: scratchFolder) }
    }

    /// Where a file the scenario makes at `relative` (already checked to stay inside) is written by
    /// another writer: inside the output folder, or inside a private folder when the run saves nothing.
    func outputPath(for relative: String) throws -> String {
        if let outputDirectory {
            do {
                return try outputDirectory.preparedPath(for: relative)
            } catch let refusal as OutputDirectory.Refusal {
                throw StepFailure(refusal.message)
            }
        }
        if scratchFolder == nil {
            var template = Array((NSTemporaryDirectory() + "/obscura-scratch-XXXXXX").utf8CString)
            let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
                guard let start = buffer.baseAddress else { return false }
                return mkdtemp(start) != nil
            }
            guard made else { throw StepFailure("cannot create a private folder for \(relative)") }
            scratchFolder = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let folder = scratchFolder ?? ""
        let parts = relative.split(separator: "/").map(String.init).filter { $0 != "." }
        do {
            _ = try DirectoryHandle(opening: folder).subdirectory(path: Array(parts.dropLast()))
        } catch {
            throw StepFailure("cannot make the folders of \(relative): \(error)")
        }
        return ([folder] + parts).joined(separator: "/")
    }

    /// The device of the newest camera input.
    public var device: AVCaptureDevice? { inputs.last?.device }

    /// The photo output, if one was made.
    public var photoOutput: AVCapturePhotoOutput? {
        outputOrder.lazy.compactMap { self.outputs[$0] as? AVCapturePhotoOutput }.first
    }

    /// An output by name, or a failure naming the known ones.
    func output<T: AVCaptureOutput>(_ name: String, as type: T.Type) throws -> T {
        guard let output = outputs[name] else {
            let known = outputOrder.isEmpty ? "none yet" : outputOrder.joined(separator: ", ")
            throw StepFailure("no output named '\(name)' (outputs: \(known))")
        }
        guard let typed = output as? T else { throw StepFailure("output '\(name)' is not a \(T.self)") }
        return typed
    }

    /// The current device, or a failure saying an input step must come first.
    func requireDevice() throws -> AVCaptureDevice {
        guard let device else { throw StepFailure("no camera yet: add an 'input' step first") }
        return device
    }
}
