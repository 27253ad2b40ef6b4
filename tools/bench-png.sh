#!/bin/sh
# Release-build benchmark of the PNG encoder on a real picture (see Benchmarks/PNGBenchmark/main.swift).
# Usage: tools/bench-png.sh FILE.png [runs] [level] [OUT.png]
# A 12 MP camera photo to use: the one `obscura run Scenes/constant-color.scenario.yaml --out DIR` writes.
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product PNGBenchmark
exec "$(swift build -c release --show-bin-path)/PNGBenchmark" "$@"
