import Foundation

/// A profile a file type is written in (`AVFileTypeProfile`): fragmented MPEG-4 for HTTP Live Streaming or for the
/// Common Media Application Format, which an asset writer that outputs segments needs (Capture rules §23 rule 11).
public struct AVFileTypeProfile: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Fragmented MPEG-4 for Apple's HTTP Live Streaming.
    public static let mpeg4AppleHLS = AVFileTypeProfile(rawValue: "MPEG4AppleHLS")
    /// Fragmented MPEG-4 that follows the Common Media Application Format (one track).
    public static let mpeg4CMAFCompliant = AVFileTypeProfile(rawValue: "MPEG4CMAFCompliant")
}

/// What a piece of segment data is (`AVAssetSegmentType`).
public enum AVAssetSegmentType: Int, Sendable {
    /// The initialization segment: the file type and movie boxes, with no samples.
    case initialization = 1
    /// A media segment that plays after the initialization segment: movie fragments and their samples.
    case separable = 2
}

/// What one piece of segment data holds (`AVAssetSegmentReport`).
open class AVAssetSegmentReport: NSObject, @unchecked Sendable {
    public let segmentType: AVAssetSegmentType
    /// One report per track with samples in the segment, in the order the segment holds them.
    public let trackReports: [AVAssetSegmentTrackReport]

    init(segmentType: AVAssetSegmentType, trackReports: [AVAssetSegmentTrackReport]) {
        self.segmentType = segmentType
        self.trackReports = trackReports
    }
}

/// One track's samples in a segment (`AVAssetSegmentTrackReport`).
open class AVAssetSegmentTrackReport: NSObject, @unchecked Sendable {
    public let trackID: CMPersistentTrackID
    public let mediaType: AVMediaType
    /// The presentation time of the track's first sample in the segment, on the movie's time line.
    public let earliestPresentationTimeStamp: CMTime
    /// How long the track's samples in the segment last together.
    public let duration: CMTime
    /// Where the first video sample lies in the segment data; nil for a track that is not video.
    public let firstVideoSampleInformation: AVAssetSegmentReportSampleInformation?

    init(
        trackID: CMPersistentTrackID, mediaType: AVMediaType, earliestPresentationTimeStamp: CMTime,
        duration: CMTime, firstVideoSampleInformation: AVAssetSegmentReportSampleInformation?
    ) {
        self.trackID = trackID
        self.mediaType = mediaType
        self.earliestPresentationTimeStamp = earliestPresentationTimeStamp
        self.duration = duration
        self.firstVideoSampleInformation = firstVideoSampleInformation
    }
}

/// One sample of a segment (`AVAssetSegmentReportSampleInformation`).
open class AVAssetSegmentReportSampleInformation: NSObject, @unchecked Sendable {
    public let presentationTimeStamp: CMTime
    /// Where the sample's bytes start in the segment data, and how many there are.
    public let offset: Int
    public let length: Int
    /// Whether a decoder can start at the sample.
    public let isSyncSample: Bool

    init(presentationTimeStamp: CMTime, offset: Int, length: Int, isSyncSample: Bool) {
        self.presentationTimeStamp = presentationTimeStamp
        self.offset = offset
        self.length = length
        self.isSyncSample = isSyncSample
    }
}

/// Receives an asset writer's segment data (`AVAssetWriterDelegate`); both methods optional. Implement one: the
/// writer calls the one with a report, which by default hands the data to the one without.
public protocol AVAssetWriterDelegate: NSObjectProtocol, Sendable {
    func assetWriter(
        _ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType,
        segmentReport: AVAssetSegmentReport?)
    func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType)
}

extension AVAssetWriterDelegate {
    public func assetWriter(
        _ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType,
        segmentReport: AVAssetSegmentReport?
    ) {
        assetWriter(writer, didOutputSegmentData: segmentData, segmentType: segmentType)
    }

    public func assetWriter(
        _ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType
    ) {}
}

extension AVAssetSegmentReport {
    /// The report of a fragment: each track's run of samples (`FragmentedMP4.runs`), its times on the movie's time
    /// line in the track's timescale.
    static func separable(fragment: [UInt8], tracks: [FragmentedMP4.Track]) -> AVAssetSegmentReport {
        let reports = FragmentedMP4.runs(fragment: fragment, tracks: tracks).compactMap {
            run -> AVAssetSegmentTrackReport? in
            guard run.sampleCount > 0, let track = tracks.first(where: { $0.id == run.trackID }) else { return nil }
            let scale = Int32(clamping: track.timescale)
            let start = CMTime(value: Int64(run.baseDecodeTime) + run.firstCompositionOffset, timescale: scale)
            let isVideo = track.handler == "vide"
            return AVAssetSegmentTrackReport(
                trackID: CMPersistentTrackID(run.trackID), mediaType: isVideo ? .video : .audio,
                earliestPresentationTimeStamp: start, duration: CMTime(value: Int64(run.duration), timescale: scale),
                firstVideoSampleInformation: isVideo
                    ? AVAssetSegmentReportSampleInformation(
                        presentationTimeStamp: start, offset: run.firstOffset, length: run.firstSize,
                        isSyncSample: run.firstIsSync) : nil)
        }
        return AVAssetSegmentReport(segmentType: .separable, trackReports: reports)
    }
}
