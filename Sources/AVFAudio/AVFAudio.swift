// On Linux, `import AVFAudio` gives audio code the emulated names it finds there on Apple's platforms: the audio
// session and the keys and values of audio settings dictionaries. AVFoundation re-exports them too.
@_exported import ObscuraAV
