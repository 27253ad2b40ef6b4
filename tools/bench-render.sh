#!/bin/sh
# Release-build benchmark of the sensor renderer (violets-like scene, 4032×3024, flash + ambient).
# Usage: tools/bench-render.sh [runs] [width height]
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product SensorBenchmark
exec "$(swift build -c release --show-bin-path)/SensorBenchmark" "${1:-5}" ${2:+"$2"} ${3:+"$3"}
