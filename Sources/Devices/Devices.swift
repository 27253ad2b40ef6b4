// Devices: device profile files turned into validated DeviceProfile values.
import Spectra
