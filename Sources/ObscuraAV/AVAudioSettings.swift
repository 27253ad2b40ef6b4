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
