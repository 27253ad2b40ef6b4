import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Testing

// Format descriptions as recorders and filters read them: the microphone's stream layout and channel layout handed
// to a writer, a frame's colour extensions, and the output buffer pool Apple's AVCamFilter sizes by its allocation
// threshold.

extension DropIn {
    @Suite struct FormatDescriptionIdiomTests {
        /// The first buffer each data output hands over.
        final class FirstBuffers: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate,
            AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable
        {
            private let lock = NSLock()
            private(set) var video: CMSampleBuffer?
            private(set) var audio: CMSampleBuffer?
            let done = DispatchSemaphore(value: 0)

            func captureOutput(
                _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
            ) {
                let finished = lock.withLock { () -> Bool in
                    let wasDone = video != nil && audio != nil
                    if output is AVCaptureAudioDataOutput, audio == nil { audio = sampleBuffer }
                    if output is AVCaptureVideoDataOutput, video == nil { video = sampleBuffer }
                    return !wasDone && video != nil && audio != nil
                }
                if finished { done.signal() }
            }
        }

        static func firstBuffers() throws -> FirstBuffers {
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video))))
            session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .audio))))
            let video = AVCaptureVideoDataOutput()
            video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
            let audio = AVCaptureAudioDataOutput()
            session.addOutput(video)
            session.addOutput(audio)
            session.commitConfiguration()
            let buffers = FirstBuffers()
            let queue = DispatchQueue(label: "buffers")
            video.setSampleBufferDelegate(buffers, queue: queue)
            audio.setSampleBufferDelegate(buffers, queue: queue)
            session.startRunning()
            #expect(buffers.done.wait(timeout: .now() + 60) == .success)
            session.stopRunning()
            return buffers
        }

        /// A recorder that sets its audio input up from the first microphone buffer: the sample rate and channel
        /// count from the stream's layout, the channel layout's bytes under `AVChannelLayoutKey`.
        @Test func aRecorderTakesTheMicrophonesLayout() throws {
            let sample = try #require(try Self.firstBuffers().audio)
            let format = try #require(CMSampleBufferGetFormatDescription(sample))
            #expect(CMFormatDescriptionGetMediaType(format) == kCMMediaType_Audio)
            let asbd = try #require(CMAudioFormatDescriptionGetStreamBasicDescription(format)).pointee
            // The microphone's documented stream: 16-bit signed, packed linear PCM, one channel, 44.1 kHz.
            #expect(asbd.mFormatID == kAudioFormatLinearPCM && asbd.mSampleRate == 44_100)
            #expect(asbd.mChannelsPerFrame == 1 && asbd.mBitsPerChannel == 16 && asbd.mBytesPerFrame == 2)
            #expect(asbd.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0)
            #expect(asbd.mFormatFlags & kAudioFormatFlagIsFloat == 0)
            // The samples are as long as the layout says: bytes = frames × bytes per frame.
            let bytes = CMBlockBufferGetDataLength(try #require(CMSampleBufferGetDataBuffer(sample)))
            #expect(bytes == CMSampleBufferGetNumSamples(sample) * Int(asbd.mBytesPerFrame))

            var size = 0
            let layout = try #require(CMAudioFormatDescriptionGetChannelLayout(format, sizeOut: &size))
            #expect(size >= 12 && layout.pointee.mChannelLayoutTag == kAudioChannelLayoutTag_Mono)
            var settings: [String: Any] = [AVFormatIDKey: kAudioFormatMPEG4AAC]
            settings[AVSampleRateKey] = asbd.mSampleRate
            settings[AVNumberOfChannelsKey] = asbd.mChannelsPerFrame
            settings[AVChannelLayoutKey] = Data(bytes: layout, count: size)
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString).mov")
            let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
            #expect(writer.canApply(outputSettings: settings, forMediaType: .audio))
            // A stereo layout for one channel does not hold together.
            var stereo = AudioChannelLayout()
            stereo.mChannelLayoutTag = kAudioChannelLayoutTag_Stereo
            settings[AVChannelLayoutKey] = Data(bytes: &stereo, count: 12)
            #expect(!writer.canApply(outputSettings: settings, forMediaType: .audio))
            settings[AVNumberOfChannelsKey] = 2
            #expect(writer.canApply(outputSettings: settings, forMediaType: .audio))
        }

        /// A pipeline that keeps buffers past the callback copies them, reads how many bytes each audio sample holds
        /// (a recorder's bookkeeping), and carries a frame's attachments onto the buffer it renders into.
        @Test func samplesAreCopiedMeasuredAndTheirAttachmentsCarriedOn() throws {
            let buffers = try Self.firstBuffers()
            let audio = try #require(buffers.audio), video = try #require(buffers.video)

            var copied: CMSampleBuffer?
            #expect(
                CMSampleBufferCreateCopy(allocator: kCFAllocatorDefault, sampleBuffer: video, sampleBufferOut: &copied)
                    == noErr)
            let copy = try #require(copied)
            #expect(CMSampleBufferGetImageBuffer(copy) === CMSampleBufferGetImageBuffer(video))
            #expect(CMSampleBufferGetPresentationTimeStamp(copy) == CMSampleBufferGetPresentationTimeStamp(video))
            #expect(CMSampleBufferGetDuration(copy) == CMSampleBufferGetDuration(video))
            // The copy's attachments are its own from now on.
            CMSetAttachment(
                copy, key: "Marked" as CFString, value: true as CFBoolean,
                attachmentMode: kCMAttachmentMode_ShouldPropagate)
            #expect(CMGetAttachment(video, key: "Marked" as CFString, attachmentModeOut: nil) == nil)

            // Audio: every frame 2 bytes (16-bit mono), one size for all.
            let frames = CMSampleBufferGetNumSamples(audio)
            #expect(CMSampleBufferGetTotalSampleSize(audio) == 2 * frames)
            #expect(
                CMSampleBufferGetSampleSize(audio, at: 0) == 2 && CMSampleBufferGetSampleSize(audio, at: frames) == 0)
            var needed = 0
            #expect(
                CMSampleBufferGetSampleSizeArray(audio, entryCount: 0, arrayToFill: nil, entriesNeededOut: &needed)
                    == noErr)
            #expect(needed == 1)
            var sizes = [Int](repeating: 0, count: 1)
            #expect(
                CMSampleBufferGetSampleSizeArray(audio, entryCount: 1, arrayToFill: &sizes, entriesNeededOut: &needed)
                    == noErr)
            #expect(sizes == [2])
            // A frame's samples have no sizes.
            #expect(CMSampleBufferGetTotalSampleSize(video) == 0)
            #expect(
                CMSampleBufferGetSampleSizeArray(video, entryCount: 0, arrayToFill: nil, entriesNeededOut: &needed)
                    == kCMSampleBufferError_BufferHasNoSampleSizes && needed == 0)

            // The frame's colour attachments, carried onto a buffer of the app's own.
            var made: CVPixelBuffer?
            CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, kCVPixelFormatType_32BGRA, nil, &made)
            let rendered = try #require(made)
            let frame = try #require(CMSampleBufferGetImageBuffer(video))
            CMPropagateAttachments(frame, destination: rendered)
            let primaries = CVBufferCopyAttachment(frame, kCVImageBufferColorPrimariesKey, nil) as? String
            #expect(primaries != nil)
            #expect(CVBufferCopyAttachment(rendered, kCVImageBufferColorPrimariesKey, nil) as? String == primaries)
        }

        /// A frame's description carries its colour attachments as extensions; a filter's buffer pool made from
        /// them propagates them, and the allocation threshold stops the pool at the number of buffers in use.
        @Test func aFilterSizesItsPoolFromTheFramesFormat() throws {
            let sample = try #require(try Self.firstBuffers().video)
            let input = try #require(CMSampleBufferGetFormatDescription(sample))
            let frame = try #require(CMSampleBufferGetImageBuffer(sample))
            let extensions = try #require(CMFormatDescriptionGetExtensions(input) as? [String: Any])
            let primaries = try #require(extensions[kCVImageBufferColorPrimariesKey as String] as? String)
            let attached = CVBufferCopyAttachment(frame, kCVImageBufferColorPrimariesKey, nil) as? String
            #expect(primaries == attached)
            #expect(
                CMFormatDescriptionGetExtension(input, extensionKey: kCMFormatDescriptionExtension_ColorPrimaries)
                    as? String == primaries)

            let dimensions = CMVideoFormatDescriptionGetDimensions(input)
            let attributes: [String: Any] = [
                kCVPixelBufferPixelFormatTypeKey as String: UInt(CMFormatDescriptionGetMediaSubType(input)),
                kCVPixelBufferWidthKey as String: Int(dimensions.width),
                kCVPixelBufferHeightKey as String: Int(dimensions.height),
                kCVPixelBufferIOSurfacePropertiesKey as String: [:] as [String: Any],
                kCVBufferPropagatedAttachmentsKey as String: [kCVImageBufferColorPrimariesKey as String: primaries],
            ]
            let hint = 3
            var created: CVPixelBufferPool?
            CVPixelBufferPoolCreate(
                kCFAllocatorDefault, [kCVPixelBufferPoolMinimumBufferCountKey as String: hint] as NSDictionary,
                attributes as NSDictionary, &created)
            let pool = try #require(created)
            // AVCamFilter's preallocation: make buffers until the pool refuses, then let them go.
            var held: [CVPixelBuffer] = []
            var error = kCVReturnSuccess
            let aux = [kCVPixelBufferPoolAllocationThresholdKey as String: hint] as NSDictionary
            while error == kCVReturnSuccess && held.count <= hint {
                var buffer: CVPixelBuffer?
                error = CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(kCFAllocatorDefault, pool, aux, &buffer)
                if let buffer { held.append(buffer) }
            }
            #expect(held.count == hint && error == kCVReturnWouldExceedAllocationThreshold)
            held.removeAll()
            var buffer: CVPixelBuffer?
            #expect(CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(kCFAllocatorDefault, pool, aux, &buffer) == 0)
            let output = try #require(buffer)
            #expect(CVBufferCopyAttachment(output, kCVImageBufferColorPrimariesKey, nil) as? String == primaries)
            var description: CMFormatDescription?
            CMVideoFormatDescriptionCreateForImageBuffer(
                allocator: kCFAllocatorDefault, imageBuffer: output, formatDescriptionOut: &description)
            let made = try #require(description)
            #expect(
                (CMFormatDescriptionGetExtensions(made) as? [String: Any])?[kCVImageBufferColorPrimariesKey as String]
                    as? String == primaries)
            // A description of a buffer without attachments has no extensions.
            var plain: CVPixelBuffer?
            CVPixelBufferCreate(kCFAllocatorDefault, 4, 4, kCVPixelFormatType_32BGRA, nil, &plain)
            CMVideoFormatDescriptionCreateForImageBuffer(
                allocator: kCFAllocatorDefault, imageBuffer: try #require(plain), formatDescriptionOut: &description)
            #expect(CMFormatDescriptionGetExtensions(try #require(description)) == nil)
        }

        /// A recorder's start time from the media clock, at nanosecond timescale.
        /// An audio meter as capture apps write one: the microphone buffer's samples reached through its buffer list
        /// (C call and Swift overlay) and its block buffer's pointer, each giving the bytes the block buffer copies out.
        @Test func aLevelMeterReadsTheSamplesThroughItsBufferList() throws {
            let buffers = try Self.firstBuffers()
            let sample = try #require(buffers.audio)
            let block = try #require(CMSampleBufferGetDataBuffer(sample))
            let length = CMBlockBufferGetDataLength(block)
            var copied = [Int16](repeating: 0, count: length / 2)
            copied.withUnsafeMutableBytes {
                _ = CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: length, destination: $0.baseAddress!)
            }

            // The C call, with the list on the stack and its size asked first.
            var needed = 0
            #expect(
                CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
                    sample, bufferListSizeNeededOut: &needed, bufferListOut: nil, bufferListSize: 0,
                    blockBufferAllocator: nil, blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: nil) == noErr)
            #expect(needed == MemoryLayout<AudioBufferList>.size)
            var list = AudioBufferList()
            var retained: CMBlockBuffer?
            let status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
                sample, bufferListSizeNeededOut: nil, bufferListOut: &list,
                bufferListSize: MemoryLayout<AudioBufferList>.size,
                blockBufferAllocator: nil, blockBufferMemoryAllocator: nil,
                flags: kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment, blockBufferOut: &retained)
            #expect(status == noErr && retained != nil)
            let first = UnsafeMutableAudioBufferListPointer(&list)
            #expect(first.count == 1 && first[0].mNumberChannels == 1 && Int(first[0].mDataByteSize) == length)
            let viaList = Array(
                UnsafeBufferPointer(
                    start: first[0].mData?.assumingMemoryBound(to: Int16.self), count: Int(first[0].mDataByteSize) / 2))
            #expect(viaList == copied)
            #expect(Int(bitPattern: first[0].mData) % 16 == 0)

            // The Swift overlay.
            let viaOverlay = try sample.withAudioBufferList { list, _ in
                list.flatMap { buffer in
                    Array(
                        UnsafeBufferPointer(
                            start: buffer.mData?.assumingMemoryBound(to: Int16.self),
                            count: Int(buffer.mDataByteSize) / 2))
                }
            }
            #expect(viaOverlay == copied)

            // The block buffer's own pointer, from a byte into it.
            var total = 0, atOffset = 0
            var pointer: UnsafeMutablePointer<Int8>?
            #expect(
                CMBlockBufferGetDataPointer(
                    block, atOffset: 2, lengthAtOffsetOut: &atOffset, totalLengthOut: &total, dataPointerOut: &pointer)
                    == kCMBlockBufferNoErr)
            #expect(total == length && atOffset == length - 2)
            let viaPointer = try #require(pointer).withMemoryRebound(to: Int16.self, capacity: length / 2 - 1) {
                Array(UnsafeBufferPointer(start: $0, count: length / 2 - 1))
            }
            #expect(viaPointer == Array(copied.dropFirst()))
            #expect(
                CMBlockBufferGetDataPointer(
                    block, atOffset: length, lengthAtOffsetOut: nil, totalLengthOut: nil, dataPointerOut: &pointer)
                    == kCMBlockBufferBadOffsetParameterErr)

            // A list with no room, and a video frame, are refused with Core Media's codes.
            var small = AudioBufferList()
            #expect(
                CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
                    sample, bufferListSizeNeededOut: nil, bufferListOut: &small, bufferListSize: 4,
                    blockBufferAllocator: nil, blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: nil)
                    == kCMSampleBufferError_ArrayTooSmall)
            let video = try #require(buffers.video)
            #expect(
                CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
                    video, bufferListSizeNeededOut: nil, bufferListOut: &small,
                    bufferListSize: MemoryLayout<AudioBufferList>.size,
                    blockBufferAllocator: nil, blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: nil)
                    == kCMSampleBufferError_InvalidMediaTypeForOperation)
            #expect(throws: (any Error).self) { try video.withAudioBufferList { _, _ in 0 } }
        }

        /// The overlay's allocation of a list for several buffers: its size, count and buffers as set.
        @Test func aBufferListAllocatedForSeveralBuffers() {
            #expect(AudioBufferList.sizeInBytes(maximumBuffers: 1) == MemoryLayout<AudioBufferList>.size)
            #expect(AudioBufferList.sizeInBytes(maximumBuffers: 2) == MemoryLayout<AudioBufferList>.size + 16)
            let list = AudioBufferList.allocate(maximumBuffers: 2)
            defer { list.unsafeMutablePointer.deallocate() }
            #expect(list.count == 2 && list[1].mData == nil && list[1].mDataByteSize == 0)
            list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 8, mData: nil)
            #expect(list.map(\.mDataByteSize) == [0, 8])
            #expect(list.unsafePointer.pointee.mNumberBuffers == 2)
        }

        @Test func nanosecondTimescale() {
            let start = CMTime(seconds: 12.5, preferredTimescale: CMTimeScale(NSEC_PER_SEC))
            #expect(start.timescale == 1_000_000_000 && start.value == 12_500_000_000)
            #expect(NSEC_PER_MSEC * 1_000 == NSEC_PER_SEC && USEC_PER_SEC * NSEC_PER_USEC == NSEC_PER_SEC)
        }
    }
}
