import AVFAudio
import Testing

// This file imports AVFAudio alone, as audio code does: the audio session and the keys and values of audio settings
// dictionaries come with it, with the numbers Apple's headers give them.

extension DropIn {
    @Suite struct AVFAudioImportTests {
        @Test func avFAudioBringsTheSessionAndTheSettingsKeys() {
            let settings: [String: Any] = [
                AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 1,
                AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue, AVLinearPCMBitDepthKey: 16,
                AVLinearPCMIsFloatKey: false, AVLinearPCMIsBigEndianKey: false, AVLinearPCMIsNonInterleaved: false,
            ]
            #expect(settings.count == 8)
            #expect(AVAudioQuality.min.rawValue == 0 && AVAudioQuality.low.rawValue == 0x20)
            #expect(AVAudioQuality.medium.rawValue == 0x40 && AVAudioQuality.high.rawValue == 0x60)
            #expect(AVAudioQuality.max.rawValue == 0x7F)
            // The four-character codes spell their names.
            #expect(kAudioFormatAppleLossless == 0x616C_6163 && kAudioFormatMPEG4AAC_HE == 0x6161_6368)
            #expect(kAudioFormatLinearPCM == 0x6C70_636D)
            _ = AVAudioSession.sharedInstance()
        }
    }
}
