import CaptureRules
import Devices
import Foundation
import ISP
import Sensor

extension AVCapturePhotoOutput {
    /// Starts a photo request. Validation runs synchronously in spec §3.2's order and raises
    /// `NSInvalidArgumentException` at the first failure; the settings are copied (spec §3.2 [D]).
    /// Callbacks then arrive on the output's delegate queue in the order of spec §6.
    public func capturePhoto(with settings: AVCapturePhotoSettings, delegate: AVCapturePhotoCaptureDelegate) {
        let settings = dualPhotosAsConstituents(settings)
        // Validate against a snapshot, without the lock: rules read the output's public properties.
        let check = PhotoSettingsValidation(
            output: self, settings: settings, delegate: delegate, state: lock.withLock { inner })
        raiseIfNeeded(check.firstViolation())
        // spec §3.2 rule 9 [D]: preview and thumbnail formats come from the settings' available lists.
        if let refusal = settings.previewFormatRefusal { Violation.capturePhoto(9, .documented, refusal).raise() }
        // spec §1.7 [D]: a photo output that has not started yet is started for the capture.
        session?.deferredStartForCapture(by: self)
        // spec §3.2 rule 3: claim the uniqueID atomically, so two racing captures cannot both pass.
        let ordinal = lock.withLock { () -> UInt64? in
            guard settings.uniqueID > inner.lastUniqueID else { return nil }
            inner.lastUniqueID = settings.uniqueID
            inner.captureCount += 1
            return inner.captureCount
        }
        guard let ordinal else { Violation.capturePhoto(3, .observed, "Settings may not be re-used").raise() }
        let request = resolve(settings, ordinal: ordinal)
        let overlapping = requestAccepted(settings.uniqueID)
        if overlapping && isFastCapturePrioritizationEnabled {
            // spec §3.3 [I]: a request that overlaps another is processed for speed.
            Emulation.shared.record(
                TraceEntry(
                    section: "§3.3", rule: nil, outcome: .decided,
                    sentence: "Fast capture prioritization: another capture is still in flight, so this one is "
                        + "processed with .speed quality prioritization."))
        }
        deliver(request, to: delegate)
    }

    /// The settings with the pre-iOS 13 dual-photo flag spelled as constituent delivery, which the rules and the
    /// capture read: the dual camera's two constituents (spec §4 [D]). On another camera the flag has no photos to
    /// ask for, and, as the output's own dual-photo switch cannot be on there, it raises (spec §3.2 rule 21 [D]).
    private func dualPhotosAsConstituents(_ settings: AVCapturePhotoSettings) -> AVCapturePhotoSettings {
        guard settings.isDualCameraDualPhotoDeliveryEnabled,
            settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices.isEmpty
        else { return settings }
        guard isDualCameraDualPhotoDeliveryEnabled, let device = lock.withLock({ inner.caps.device }),
            device.deviceType == .builtInDualCamera
        else {
            Violation.capturePhoto(
                21, .documented,
                "settings.dualCameraDualPhotoDeliveryEnabled may not be set to YES unless "
                    + "self.dualCameraDualPhotoDeliveryEnabled is YES"
            ).raise()
        }
        let copy = settings.frozenCopy()
        copy.virtualDeviceConstituentPhotoDeliveryEnabledDevices = device.constituentDevices
        return copy
    }

    struct CaptureRequest {
        let resolved: AVCaptureResolvedPhotoSettings
        let pending: PendingRender
        let bracket: [AVCaptureBracketedStillImageSettings]
        /// One rendering per bracket element, each at its own exposure (spec §4 [D]); empty without a bracket.
        let bracketRenders: [PendingRender]
        let uncompressedFormat: OSType?
        let sourceType: AVCaptureDevice.DeviceType
        /// One per constituent device for a constituent capture (spec §4, §5 [D]); empty otherwise.
        let constituents: [ConstituentPhoto]
        /// Depth, embedding and (for non-constituent photos) no calibration.
        let extras: PhotoExtras
        /// Whether each group of photos starts with a RAW photo (spec §6 [O]: RAW before processed).
        let hasRaw: Bool
        /// The preview image the processed photos carry (spec §4, §5).
        let preview: PreviewImage?
        /// The Live Photo movie to write, when the settings name a movie URL (spec §20 rule 12).
        let livePhoto: LivePhotoPlan?
    }

    /// A constituent photo: rendered through that camera, with its type and calibration.
    struct ConstituentPhoto {
        let pending: PendingRender
        let sourceType: AVCaptureDevice.DeviceType
        let extras: PhotoExtras
    }

    /// Resolves flash, exposure, dimensions and the photo count (spec §6), tracing each decision.
    private func resolve(_ original: AVCapturePhotoSettings, ordinal: UInt64) -> CaptureRequest {
        let settings = original.frozenCopy()
        let state = lock.withLock { inner }
        // Validation rule 2 guarantees a connected device.
        guard let device = state.caps.device else { preconditionFailure("capture validated without a device") }
        // spec §4 [D]: the default is the smallest supported size, the largest (the format's
        // highResolutionStillImageDimensions) with the deprecated high-resolution opt-in; rule 13 bounds a requested one.
        let requested = settings.maxPhotoDimensions
        let sizes = state.caps.photoDimensions
        let highResolution = device.activeFormat.highResolutionStillImageDimensions
        let unasked =
            settings.isHighResolutionPhotoEnabled && highResolution.width > 0
            ? highResolution : (sizes.first ?? device.activeFormat.dimensions)
        let dims = requested.width != 0 ? requested : unasked
        let constantColor = settings.isConstantColorEnabled
        let fixed = device.customExposure.map { PhotoRenderRequest.FixedExposure(duration: $0.duration, iso: $0.iso) }
        let hasRaw = settings.rawPhotoPixelFormatType != 0
        // A still-image output's connection scales and crops on top of the device's zoom (spec §1.5).
        let scaleAndCrop = Double(connectionsOwner?.connection(with: .video)?.videoScaleAndCropFactor ?? 1)
        let zoom = min(Double(device.videoZoomFactor) * scaleAndCrop, Double(device.activeFormat.videoMaxZoomFactor))
        let maximumExposure = device.autoExposureTimeLimit
        let bias = Double(device.exposureTargetBias)
        // A screen playing a movie is photographed showing the frame of the session clock's moment.
        let moment = session.map { StreamEngine.shared.clockTime(of: $0).seconds } ?? 0
        let scene = StreamRendering.moment(of: Emulation.shared.currentScene, at: moment.isFinite ? moment : 0)
        func request(flash: Bool) -> PhotoRenderRequest {
            var made = PhotoRenderRequest(
                profile: device.deviceProfile, camera: device.camera, scene: scene,
                flashFired: flash, dimensions: Dimensions(width: Int(dims.width), height: Int(dims.height)),
                colorSpace: device.activeColorSpace, seed: Self.noiseSeed(Emulation.shared.seed, ordinal),
                fixedExposure: fixed, constantColor: constantColor,
                fallback: constantColor && settings.isConstantColorFallbackPhotoDeliveryEnabled)
            // The photo shows the zoomed field of view, as the preview does (spec §2.2: depth
            // delivery holds a dual camera at 2×).
            made.zoom = zoom
            made.keepsMosaic = hasRaw
            made.readout = device.activeFormat.readout
            made.maximumExposureDuration = maximumExposure
            made.exposureBias = bias
            made.deviceErrors = Emulation.shared.modelsDeviceErrors
            made.focusDistance = DeviceFocus.focusDistance(device)
            return made
        }
        let flash = decideFlash(settings.flashMode, constantColor: constantColor, device: device) {
            PhotoRenderers.current.meterForFlash(request(flash: false))
        }
        let bracket = original.bracketElements
        let count = AVCaptureResolvedPhotoSettings.expectedPhotoCount(
            bracketCount: bracket.count,
            constituentCount: settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices.count,
            constantColorWithFallback: settings.isConstantColorEnabled
                && settings.isConstantColorFallbackPhotoDeliveryEnabled,
            hasRaw: hasRaw, hasProcessed: settings.format != nil)
        Emulation.shared.record(
            TraceEntry(
                section: "§6", rule: nil, outcome: .decided,
                sentence: "expectedPhotoCount is \(count): didFinishProcessingPhoto will be called \(count) time(s)."))
        let now = clock.now
        let photoSize = (width: Int(dims.width), height: Int(dims.height))
        // spec §4 [D]: a preview or thumbnail keeps the photo's aspect ratio inside the asked box.
        let preview = settings.format == nil ? nil : settings.previewRequest(photo: photoSize)
        let thumbnail = settings.format == nil ? nil : settings.thumbnailRequest(photo: photoSize)
        let rawThumbnail = hasRaw ? settings.rawThumbnailRequest(photo: photoSize) : nil
        let livePhoto = settings.livePhotoMovieFileURL.map {
            Self.livePhotoPlan(
                url: $0, device: device, session: session,
                rotationDegrees: (connection(with: .video)?.videoTransform.quarterTurns ?? 0) * 90,
                codec: settings.livePhotoVideoCodecType, metadata: settings.livePhotoMovieMetadata)
        }
        // Mattes come with the processed photo only, at the profile's share of its size (rules 19–20
        // have made sure the output delivers what was asked).
        let matteSize = state.caps.mattes.map { PendingMattes.dimensions(photo: dims, scale: $0.scale) }
        let asksPortrait = settings.format != nil && settings.isPortraitEffectsMatteDeliveryEnabled
        let semanticTypes = settings.format == nil ? [] : settings.enabledSemanticSegmentationMatteTypes
        let matteDimensions = matteSize.map { CMVideoDimensions(width: Int32($0.width), height: Int32($0.height)) }
        let resolved = AVCaptureResolvedPhotoSettings(
            uniqueID: settings.uniqueID, photoDimensions: settings.format == nil ? CMVideoDimensions() : dims,
            previewDimensions: CMVideoDimensions(preview), embeddedThumbnailDimensions: CMVideoDimensions(thumbnail),
            rawPhotoDimensions: hasRaw ? dims : CMVideoDimensions(),
            rawEmbeddedThumbnailDimensions: CMVideoDimensions(rawThumbnail), isFlashEnabled: flash,
            isRedEyeReductionEnabled: flash && settings.isAutoRedEyeReductionEnabled,
            isVirtualDeviceFusionEnabled: isVirtualDeviceFusionSupported && device.isVirtualDevice
                && settings.isAutoVirtualDeviceFusionEnabled,
            isContentAwareDistortionCorrectionEnabled: false, expectedPhotoCount: count,
            photoProcessingTimeRange: CMTimeRange(start: now, duration: CMTime(value: 1, timescale: 2)),
            livePhotoMovieDimensions: livePhoto?.dimensions ?? CMVideoDimensions(),
            portraitEffectsMatteDimensions: asksPortrait ? matteDimensions ?? CMVideoDimensions() : CMVideoDimensions(),
            semanticSegmentationMatteDimensions: Dictionary(
                semanticTypes.map { ($0, matteDimensions ?? CMVideoDimensions()) }, uniquingKeysWith: { a, _ in a }))
        let main = request(flash: flash)
        if zoom != 1 {
            Emulation.shared.record(
                TraceEntry(
                    section: "§2.2", rule: nil, outcome: .decided,
                    sentence: "The photo is taken at videoZoomFactor \(zoom): the focal length is scaled by it, "
                        + "so the photo shows 1/\(zoom) of the unzoomed field of view."))
        }
        var extras = PhotoExtras()
        extras.fileFormat = PhotoFileFormat(settings)
        extras.livePhotoContentIdentifier = livePhoto?.contentIdentifier
        // spec §5 [D]: a photo connection's rotation and mirroring travel as the Exif orientation.
        if let connection = connection(with: .video) {
            extras.orientation = connection.videoTransform.exifOrientation.rawValue
        }
        if settings.isDepthDataDeliveryEnabled {
            // spec §3.2 rule 17 has made sure the output delivers depth; N17: nil without a model.
            extras.depth = PendingDepth.forPhoto(
                device: device, scene: main.scene.reference, seed: main.seed, filtered: settings.isDepthDataFiltered)
            extras.embedsDepth = settings.embedsDepthDataInPhoto
            Emulation.shared.record(
                TraceEntry(
                    section: "§5", rule: nil, outcome: .decided,
                    sentence: extras.depth.map {
                        "Depth comes with the photo at \($0.dimensions.width)×\($0.dimensions.height) "
                            + "(more than twice the streaming size), \($0.filtered ? "filtered" : "unfiltered")."
                    } ?? "Depth was asked, but the device has no depth format: depthData is nil."))
        }
        let constituents = settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices.map { member in
            constituentPhoto(
                member, of: device, main: main, extras: extras,
                calibration: settings.isCameraCalibrationDataDeliveryEnabled)
        }
        if let matteSize, asksPortrait || !semanticTypes.isEmpty {
            // Constituent photos were given their extras above, without mattes: only the primary
            // photo carries them (spec §5 [I]).
            extras.mattes = PendingMattes(
                request: main, dimensions: matteSize, portrait: asksPortrait, semanticTypes: semanticTypes)
            extras.embedsPortraitMatte = asksPortrait && settings.embedsPortraitEffectsMatteInPhoto
            extras.embedsSemanticMattes = settings.embedsSemanticSegmentationMattesInPhoto
            Emulation.shared.record(
                TraceEntry(
                    section: "§5", rule: nil, outcome: .decided,
                    sentence: "Mattes come with the photo at \(matteSize.width)×\(matteSize.height), the camera "
                        + "profile's share of the photo's size, wherever a person is in view."))
        }
        return CaptureRequest(
            resolved: resolved, pending: PendingRender(main), bracket: bracket,
            bracketRenders: bracket.map { PendingRender(Self.bracketed(main, $0, device: device)) },
            uncompressedFormat: settings.processedPixelFormat, sourceType: device.deviceType,
            constituents: constituents, extras: extras, hasRaw: hasRaw, preview: preview, livePhoto: livePhoto)
    }

    /// The request of one bracket element (spec §4 [D]): an auto-exposure element meters at its own target bias
    /// (`currentExposureTargetBias` keeps the device's), a manual one exposes for its own duration and ISO
    /// (`currentExposureDuration` and `currentISO` keep the device's present values).
    static func bracketed(
        _ main: PhotoRenderRequest, _ element: AVCaptureBracketedStillImageSettings, device: AVCaptureDevice
    ) -> PhotoRenderRequest {
        var made = main
        if let auto = element as? AVCaptureAutoExposureBracketedStillImageSettings {
            if auto.exposureTargetBias != AVCaptureDevice.currentExposureTargetBias {
                made.exposureBias = Double(auto.exposureTargetBias)
            }
        } else if let manual = element as? AVCaptureManualExposureBracketedStillImageSettings {
            let duration = manual.exposureDuration.isValid ? manual.exposureDuration.seconds : device.exposureDuration.seconds
            let iso = manual.iso == AVCaptureDevice.currentISO ? Double(device.iso) : Double(manual.iso)
            made.fixedExposure = PhotoRenderRequest.FixedExposure(duration: duration, iso: iso)
        }
        return made
    }

    /// A constituent's photo: the same request rendered through the constituent camera (its own
    /// intrinsics, distortion and pose in the device), blacked out outside the preview when the
    /// virtual device is zoomed past the constituent's field of view (spec §2.2, W17 [T]).
    private func constituentPhoto(
        _ member: AVCaptureDevice, of device: AVCaptureDevice, main: PhotoRenderRequest, extras: PhotoExtras,
        calibration: Bool
    ) -> ConstituentPhoto {
        let profile = device.deviceProfile
        let fraction = PhotoCleanAperture.visibleFraction(
            constituentFocal: Self.normalisedFocal(profile, member.camera) ?? 0,
            virtualFocal: Self.normalisedFocal(profile, device.camera) ?? 0, zoom: Double(device.videoZoomFactor))
        var request = PhotoRenderRequest(
            profile: profile, camera: member.camera, scene: main.scene, flashFired: main.flashFired,
            dimensions: main.dimensions, colorSpace: main.colorSpace, seed: main.seed, fixedExposure: main.fixedExposure,
            constantColor: false, fallback: false)
        request.visibleFraction = fraction
        request.keepsMosaic = main.keepsMosaic
        request.readout = main.readout
        request.maximumExposureDuration = main.maximumExposureDuration
        request.exposureBias = main.exposureBias
        var memberExtras = extras
        memberExtras.visibleFraction = fraction
        // The calibration refers to the part of the sensor the photo shows (spec §10 [I]).
        if calibration {
            memberExtras.calibration = (try? CameraCalibration(device: profile, camera: member.camera))?
                .cropped(toAspectOf: main.dimensions)
        }
        return ConstituentPhoto(pending: PendingRender(request), sourceType: member.deviceType, extras: memberExtras)
    }

    /// A camera's focal length in pixels over its reference width: its field of view.
    private static func normalisedFocal(_ profile: DeviceProfile, _ camera: CameraProfile) -> Double? {
        guard let physical = try? profile.renderingCamera(for: camera), let k = physical.intrinsics,
            k.reference.width > 0
        else { return nil }
        return k.fx / Double(k.reference.width)
    }

    /// Whether the flash fires: spec §2.7 [D] and §6 [D]: `.on` fires unless the flash is
    /// unavailable; `.auto` asks the scene (metered without flash, see `SensorPhotoRenderer`);
    /// Constant Color always fires it, `.auto` included (spec §11 [D]).
    private func decideFlash(
        _ mode: AVCaptureDevice.FlashMode, constantColor: Bool, device: AVCaptureDevice,
        meter: () -> FlashMetering?
    ) -> Bool {
        let fires: Bool
        let why: String
        if constantColor {
            fires = true
            why = "Constant Color always fires the flash (spec §11), whatever the flash mode."
        } else if !device.isFlashAvailable {
            fires = false
            why = "The flash is unavailable (no flash, or too hot), so it does not fire (spec §2.7)."
        } else {
            switch mode {
            case .off:
                fires = false
                why = "flashMode is .off: no flash."
            case .on:
                fires = true
                why = "flashMode is .on: the flash fires."
            case .auto:
                if let m = meter() {
                    fires = m.needsFlash
                    let iso = m.isoAtHandHeldLimit.isFinite ? String(Int(m.isoAtHandHeldLimit.rounded())) : "∞"
                    why =
                        "flashMode is .auto: without flash the scene would need ISO \(iso) at 1/15 s, "
                        + (fires ? "above" : "not above") + " ISO \(Int(PhotoPipeline.autoFlashISO)), so the flash "
                        + (fires ? "fires." : "does not fire.")
                } else {
                    fires = false
                    why = "flashMode is .auto, but the scene could not be metered: no flash."
                }
            }
        }
        Emulation.shared.record(TraceEntry(section: "§6", rule: nil, outcome: .decided, sentence: why))
        return fires
    }

    /// The noise seed of an output's n-th capture: SplitMix64 (Steele et al. 2014) of the emulator
    /// seed and n, so neighbouring seeds and neighbouring captures get unrelated noise.
    static func noiseSeed(_ seed: UInt64, _ ordinal: UInt64) -> UInt64 {
        func mix(_ x: UInt64) -> UInt64 {
            var z = x &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return mix(seed ^ mix(ordinal))
    }

    /// Delivers the callbacks: willBegin, willCapture, didCapture, didFinishProcessingPhoto ×
    /// expectedPhotoCount, the two Live Photo movie callbacks when a movie was asked for,
    /// didFinishCapture (spec §6 [D] + emulator order [I]). In realtime mode
    /// the steps are paced by the exposure and processing times.
    private func deliver(_ request: CaptureRequest, to delegate: AVCapturePhotoCaptureDelegate) {
        // The output holds the delegate until the capture is finished, as Apple's does: AVCam makes its delegate
        // inside a continuation and keeps no reference to it (spec §6).
        let held = UncheckedSendable(delegate)
        let realtime = Emulation.shared.clockMode == .realtime
        let overlaps = overlapsProcessing
        let work = UncheckedSendable((self, request))
        delegateQueue.async {
            let (output, request) = work.value
            let id = request.resolved.uniqueID
            func call(_ body: (AVCapturePhotoCaptureDelegate) -> Void) {
                body(held.value)
            }
            func pause(_ seconds: Double) { if realtime { Thread.sleep(forTimeInterval: seconds) } }
            let resolved = request.resolved
            call { $0.photoOutput(output, willBeginCaptureFor: resolved) }
            pause(0.01)
            call { $0.photoOutput(output, willCapturePhotoFor: resolved) }
            let exposure = 1.0 / 60
            pause(exposure)
            let timestamp = output.clock.advance(by: exposure)
            output.requestCaptured(id)
            call { $0.photoOutput(output, didCapturePhotoFor: resolved) }
            let processing = {
                output.deliverPhotos(request, timestamp: timestamp, realtime: realtime, call: call)
                if let live = request.livePhoto {
                    // spec §6 [T], §20 rule 12: the movie's recording ends, then its file is ready.
                    call {
                        $0.photoOutput(
                            output, didFinishRecordingLivePhotoMovieForEventualFileAt: live.url,
                            resolvedSettings: resolved)
                    }
                    let movie = output.writeLivePhotoMovie(live)
                    call {
                        $0.photoOutput(
                            output, didFinishProcessingLivePhotoToMovieFileAt: live.url, duration: movie.duration,
                            photoDisplayTime: movie.photoDisplayTime, resolvedSettings: resolved, error: movie.error)
                    }
                }
                // spec §3.3 [I]: the request stops counting for readiness before the app hears it is
                // over, so a reader woken by didFinishCapture never sees it still in flight.
                output.requestFinished(id)
                call { $0.photoOutput(output, didFinishCaptureFor: resolved, error: nil) }
            }
            guard overlaps else {
                processing()
                return
            }
            // spec §3.3 [D]: with responsive capture the pixels are processed off the delegate
            // queue, so the next request's capture callbacks can come first; photos keep their order.
            let job = UncheckedSendable(processing)
            output.processingQueue.async {
                request.pending.prepare()
                output.delegateQueue.async { job.value() }
            }
        }
    }

    /// didFinishProcessingPhoto × expectedPhotoCount, in spec §6's order.
    private func deliverPhotos(
        _ request: CaptureRequest, timestamp: CMTime, realtime: Bool,
        call: ((AVCapturePhotoCaptureDelegate) -> Void) -> Void
    ) {
        let resolved = request.resolved
        let count = resolved.expectedPhotoCount
        let groups = max(1, request.bracket.count) * max(1, request.constituents.count)
        let perGroup = max(1, count / groups)
        for index in 0..<count {
            if realtime { Thread.sleep(forTimeInterval: 0.05) }
            let group = index / perGroup
            let element = request.bracket.isEmpty ? nil : request.bracket[group % request.bracket.count]
            // spec §6: constituents outermost, in the settings' order; within a constituent its
            // bracket elements. spec §11: the fallback (ambient) photo first, then the Constant Color
            // photo, as Apple's Constant Color sample expects; each bracket element has a rendering of its
            // own. Render 0 is the Constant Color photo, render 1 its fallback.
            let member = request.constituents.isEmpty
                ? nil : request.constituents[min(group / max(1, request.bracket.count), request.constituents.count - 1)]
            let renderIndex = member == nil && request.pending.request.fallback ? 1 - index : 0
            // spec §6 [O]: within a group the RAW photo comes before the processed one.
            let isRaw = request.hasRaw && index % perGroup == 0
            let photo = AVCapturePhoto(
                timestamp: timestamp, resolvedSettings: resolved, photoCount: index + 1, isRawPhoto: isRaw,
                sourceDeviceType: member?.sourceType ?? request.sourceType, bracketSettings: element,
                sequenceCount: request.bracket.isEmpty ? 1 : group % request.bracket.count + 1,
                pending: member?.pending
                    ?? (request.bracketRenders.isEmpty
                        ? request.pending : request.bracketRenders[group % request.bracketRenders.count]),
                renderIndex: renderIndex,
                uncompressedFormat: request.uncompressedFormat, extras: member?.extras ?? request.extras,
                preview: request.preview)
            call { delegate in
                let leftOut = DefaultCallbackProbe.reachedDefault {
                    delegate.photoOutput(self, didFinishProcessingPhoto: photo, error: nil)
                }
                // Apple documents the iOS 10 callbacks, one for processed photos and one for RAW photos,
                // called only when the newer one is not implemented (spec §6).
                guard leftOut else { return }
                if photo.isRawPhoto {
                    delegate.photoOutput(
                        self, didFinishProcessingRawPhoto: photo.photoSampleBuffer(),
                        previewPhoto: photo.previewPhotoSampleBuffer(), resolvedSettings: resolved,
                        bracketSettings: photo.bracketSettings, error: nil)
                } else {
                    delegate.photoOutput(
                        self, didFinishProcessingPhoto: photo.photoSampleBuffer(),
                        previewPhoto: photo.previewPhotoSampleBuffer(), resolvedSettings: resolved,
                        bracketSettings: photo.bracketSettings, error: nil)
                }
            }
        }
    }
}

