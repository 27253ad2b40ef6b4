import Sensor
import Spectra

extension ColorCorrectionMatrix {
    /// Fits the matrix that takes camera RGB recorded under `illuminant` (divided by that
    /// illuminant's camera neutral) to CIE XYZ of the same surfaces *rendered under `target`*
    /// (CIE 15:2018 §7.1, Y_white = 1), with no chromatic-adaptation model in between.
    ///
    /// This is the mapping Constant Color needs: the flash is the known light, D65 the light the
    /// surfaces should be shown under. Fitting the cross-illuminant pairs directly lets the least
    /// squares absorb the part of the illuminant change a von Kries/Bradford transform cannot (the
    /// spectral shape of the LED), over the reflectances of the training set. The white constraint
    /// keeps the perfect diffuser exactly at the target's white, so neutrals stay neutral.
    public init(
        camera: CameraModel, illuminant: Spectrum, renderedUnder target: Spectrum,
        training: [Spectrum] = defaultTrainingSet
    ) {
        let neutral = CameraResponse.neutral(illuminant: illuminant, camera: camera)
        let pairs = training.map { reflectance in
            (
                CameraResponse.rgb(reflectance: reflectance, illuminant: illuminant, camera: camera) / neutral,
                Colorimetry.xyz(reflectance: reflectance, illuminant: target).vector / 100
            )
        }
        matrix = ColorCorrectionMatrix.fit(pairs, white: Colorimetry.whitePoint(of: target).vector / 100)
    }
}
