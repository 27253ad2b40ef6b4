#!/bin/sh
# Streaming benchmark (release build): 10 s of virtual time, 1440x1080 video at 30 fps with
# 320x240 depth, audio, metadata and a synchronizer. Prints frames per wall-clock second.
set -e
cd "$(dirname "$0")/.."
swift build -c release --product StreamingBenchmark
.build/release/StreamingBenchmark
