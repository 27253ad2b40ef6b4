// Imaging: pixel planes, the PNG codec, resampling, warps and filters.
