#!/bin/sh
# Photo-file benchmark (release build): a 12 MP iPhone 15 Pro photo through AVCapturePhotoOutput to
# fileDataRepresentation() bytes, per offered codec (JPEG, HEIC) and as PNG. Prints sizes and
# times, with the machine's load before and after.
set -e
cd "$(dirname "$0")/.."
swift build -c release --product PhotoFileBenchmark >/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
OBSCURA_DEVICE=iphone-15-pro .build/release/PhotoFileBenchmark
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
