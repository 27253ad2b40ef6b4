import Foundation

/// The data of several outputs for one time (spec §8 [D]). Outputs without data for the time
/// are absent: subscripting gives nil and they are not counted. Iteration visits the outputs
/// present, in the synchronizer's `dataOutputs` order [O].
open class AVCaptureSynchronizedDataCollection: NSObject, Sequence, @unchecked Sendable {
    private let entries: [(output: AVCaptureOutput, data: AVCaptureSynchronizedData)]

    init(_ entries: [(output: AVCaptureOutput, data: AVCaptureSynchronizedData)]) {
        self.entries = entries
        super.init()
    }

    /// How many outputs have data here.
    public var count: Int { entries.count }

    /// The data of an output, or nil.
    public func synchronizedData(for captureOutput: AVCaptureOutput) -> AVCaptureSynchronizedData? {
        entries.first { $0.output === captureOutput }?.data
    }

    /// The data of an output, or nil.
    public subscript(key: AVCaptureOutput) -> AVCaptureSynchronizedData? { synchronizedData(for: key) }

    /// Iterates the outputs present.
    public func makeIterator() -> IndexingIterator<[AVCaptureOutput]> { entries.map(\.output).makeIterator() }

    /// The common timestamp.
    var timestamp: CMTime? { entries.first?.data.timestamp }
}
