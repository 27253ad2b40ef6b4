/// The noise of a pixel that holds more than one photosite: a binned read, a downscaled readout, or both.
///
/// A delivered pixel holds n = k·a photosites: k summed per read (4 for 2×2 charge binning, else 1) and
/// a reads averaged by the ISP's downscale (the area ratio of readout to picture, at least 1: a picture
/// larger than its readout is interpolated and keeps one read's noise). Its value is their mean, so
/// codes at an exposure are the same whatever the readout (our choice: the ISP normalises binned and
/// averaged readouts to the full readout's scale, so exposure and ISO mean the same in every format),
/// unless a format states a binned well other than four photosite wells: the conversion gain maps
/// the well to the white level, and auto-exposure follows it.
/// Per photosite, the mean of n photosites has:
/// - photon shot noise of variance S/n for a photosite mean S (a sum of Poisson counts is Poisson with
///   the summed mean; `photositesPerPixel` carries n to the noise chain);
/// - read noise σ = √a·σ_read / n: one read per k photosites, a reads averaged (the binned read's σ when
///   the format states it, else the photosite's: charge summed on the floating diffusion is read once);
/// - PRNU σ = PRNU / √n (the mean of n independent gains); DSNU σ = DSNU / √n (n independent offsets
///   averaged); dark current per photosite unchanged;
/// - full well: a binned read's well (k photosite wells, or the format's figure) over k.
/// With g the conversion gain and μ a pixel's mean code above black, its variance is
/// σ² = (g/n)·μ + g²·(a·σ_read²/n² + DSNU²/n) + (PRNU²/n)·μ² + 1/12 (the ADC's step): the *How the
/// physics works* article's photon transfer per readout, which the photon-transfer tests check per format.
extension NoiseParameters {
    /// These figures for a pixel summing `summed` photosites per read and averaging `averaged` reads.
    /// `readFullWell` and `readNoise` are a binned read's, when the format states them.
    public func readout(
        summed: Int, averaged: Double, readFullWell: Double? = nil, readNoise: Double? = nil
    ) -> NoiseParameters {
        precondition(summed >= 1 && averaged >= 1, "a pixel holds at least one read of one photosite")
        let k = Double(summed)
        let n = k * averaged
        var out = self
        out.photositesPerPixel = photositesPerPixel * n
        out.fullWellElectrons = (readFullWell ?? fullWellElectrons * k) / k
        out.readNoiseElectrons = (readNoise ?? readNoiseElectrons) * averaged.squareRoot() / n
        out.prnu = prnu / n.squareRoot()
        out.dsnuElectrons = dsnuElectrons / n.squareRoot()
        return out
    }
}
