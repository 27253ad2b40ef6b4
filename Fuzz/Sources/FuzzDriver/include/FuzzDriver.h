#ifndef OBSCURA_FUZZ_DRIVER_H
#define OBSCURA_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's own entry (compiler-rt FuzzerInterface.h): parses the command line and runs the callback. SwiftPM
/// links every executable through a module-named `main`, so the fuzz targets call this from their `@main` instead
/// of relying on the `main` in libFuzzer's archive.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
