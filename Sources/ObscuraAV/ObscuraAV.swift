// ObscuraAV: the mirrored AVFoundation capture API.
