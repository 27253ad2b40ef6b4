/// `AVFormatIDKey`: the audio format (a `kAudioFormat…` code) in an audio settings dictionary.
public let AVFormatIDKey = "AVFormatIDKey"
/// `AVSampleRateKey`: samples per second, in an audio settings dictionary.
public let AVSampleRateKey = "AVSampleRateKey"
/// `AVNumberOfChannelsKey`: the channel count, in an audio settings dictionary.
public let AVNumberOfChannelsKey = "AVNumberOfChannelsKey"
/// `kAudioFormatMPEG4AAC`: MPEG-4 AAC ('aac ').
public let kAudioFormatMPEG4AAC: FourCharCode = 0x6161_6320
/// `AVChannelLayoutKey`: the channels' arrangement, the bytes of an `AudioChannelLayout` as `Data`, in an audio
/// settings dictionary; its channel count must be the settings' `AVNumberOfChannelsKey`.
public let AVChannelLayoutKey = "AVChannelLayoutKey"
/// `AVEncoderBitRateKey`: the encoded audio's bits per second, in an audio settings dictionary.
public let AVEncoderBitRateKey = "AVEncoderBitRateKey"

/// `kAudioFormatAppleLossless`: Apple Lossless ('alac').
public let kAudioFormatAppleLossless: FourCharCode = 0x616C_6163
/// `kAudioFormatMPEG4AAC_HE`: MPEG-4 High Efficiency AAC ('aach').
public let kAudioFormatMPEG4AAC_HE: FourCharCode = 0x6161_6368
/// `kAudioFormatMPEG4AAC_HE_V2`: MPEG-4 High Efficiency AAC version 2 ('aacp').
public let kAudioFormatMPEG4AAC_HE_V2: FourCharCode = 0x6161_6370
/// `kAudioFormatMPEG4AAC_LD`: MPEG-4 AAC Low Delay ('aacl').
public let kAudioFormatMPEG4AAC_LD: FourCharCode = 0x6161_636C
/// `kAudioFormatMPEG4AAC_ELD`: MPEG-4 AAC Enhanced Low Delay ('aace').
public let kAudioFormatMPEG4AAC_ELD: FourCharCode = 0x6161_6365
/// `kAudioFormatAppleIMA4`: Apple's IMA 4:1 ADPCM ('ima4').
public let kAudioFormatAppleIMA4: FourCharCode = 0x696D_6134
/// `kAudioFormatULaw`: µ-law 2:1 ('ulaw').
public let kAudioFormatULaw: FourCharCode = 0x756C_6177
/// `kAudioFormatALaw`: A-law 2:1 ('alaw').
public let kAudioFormatALaw: FourCharCode = 0x616C_6177
/// `kAudioFormatFLAC`: Free Lossless Audio Codec ('flac').
public let kAudioFormatFLAC: FourCharCode = 0x666C_6163
/// `kAudioFormatOpus`: Opus ('opus').
public let kAudioFormatOpus: FourCharCode = 0x6F70_7573

/// `AVEncoderAudioQualityKey`: how hard the encoder works for quality, an `AVAudioQuality` raw value.
public let AVEncoderAudioQualityKey = "AVEncoderAudioQualityKey"
/// `AVEncoderAudioQualityForVBRKey`: the quality a variable-bit-rate encoder aims for, an `AVAudioQuality` raw value.
public let AVEncoderAudioQualityForVBRKey = "AVEncoderAudioQualityForVBRKey"
/// `AVEncoderBitRatePerChannelKey`: the encoded audio's bits per second for each channel.
public let AVEncoderBitRatePerChannelKey = "AVEncoderBitRatePerChannelKey"
/// `AVEncoderBitRateStrategyKey`: how the encoder spends its bits, one of the `AVAudioBitRateStrategy_…` values.
public let AVEncoderBitRateStrategyKey = "AVEncoderBitRateStrategyKey"
/// `AVEncoderBitDepthHintKey`: the bit depth the encoder may assume of its input, 8 to 32.
public let AVEncoderBitDepthHintKey = "AVEncoderBitDepthHintKey"
/// `AVSampleRateConverterAudioQualityKey`: how hard the sample-rate converter works, an `AVAudioQuality` raw value.
public let AVSampleRateConverterAudioQualityKey = "AVSampleRateConverterAudioQualityKey"
/// `AVSampleRateConverterAlgorithmKey`: the sample-rate converter's algorithm, one of the
/// `AVSampleRateConverterAlgorithm_…` values.
public let AVSampleRateConverterAlgorithmKey = "AVSampleRateConverterAlgorithmKey"
/// `AVLinearPCMBitDepthKey`: the bits of each linear PCM sample: 8, 16, 24 or 32.
public let AVLinearPCMBitDepthKey = "AVLinearPCMBitDepthKey"
/// `AVLinearPCMIsBigEndianKey`: whether linear PCM samples are big-endian.
public let AVLinearPCMIsBigEndianKey = "AVLinearPCMIsBigEndianKey"
/// `AVLinearPCMIsFloatKey`: whether linear PCM samples are floating point.
public let AVLinearPCMIsFloatKey = "AVLinearPCMIsFloatKey"
/// `AVLinearPCMIsNonInterleaved`: whether linear PCM channels are stored apart.
public let AVLinearPCMIsNonInterleaved = "AVLinearPCMIsNonInterleavedKey"

/// `AVAudioBitRateStrategy_Constant`: the same bit rate throughout.
public let AVAudioBitRateStrategy_Constant = "AVAudioBitRateStrategy_Constant"
/// `AVAudioBitRateStrategy_LongTermAverage`: the bit rate on average over time.
public let AVAudioBitRateStrategy_LongTermAverage = "AVAudioBitRateStrategy_LongTermAverage"
/// `AVAudioBitRateStrategy_VariableConstrained`: a bit rate that varies within limits.
public let AVAudioBitRateStrategy_VariableConstrained = "AVAudioBitRateStrategy_VariableConstrained"
/// `AVAudioBitRateStrategy_Variable`: a bit rate that follows the sound.
public let AVAudioBitRateStrategy_Variable = "AVAudioBitRateStrategy_Variable"

/// `AVSampleRateConverterAlgorithm_Normal`: the usual converter.
public let AVSampleRateConverterAlgorithm_Normal = "AVSampleRateConverterAlgorithm_Normal"
/// `AVSampleRateConverterAlgorithm_Mastering`: a slower, cleaner converter.
public let AVSampleRateConverterAlgorithm_Mastering = "AVSampleRateConverterAlgorithm_Mastering"
/// `AVSampleRateConverterAlgorithm_MinimumPhase`: a converter with minimum-phase filters.
public let AVSampleRateConverterAlgorithm_MinimumPhase = "AVSampleRateConverterAlgorithm_MinimumPhase"

/// How hard an audio encoder or converter works (`AVAudioQuality`).
public enum AVAudioQuality: Int, Sendable {
    case min = 0
    case low = 0x20
    case medium = 0x40
    case high = 0x60
    case max = 0x7F
}
