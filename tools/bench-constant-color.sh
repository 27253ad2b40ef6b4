#!/bin/sh
# Release-build benchmark of a 12 MP Constant Color capture (hand-on-desk, iPhone 15 Pro wide).
# Usage: tools/bench-constant-color.sh [runs] [width height]   (a smaller size, e.g. for callgrind)
# OBSCURA_SCENE names another scene in Scenes/ (default hand-on-desk).
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product ConstantColorBenchmark
exec "$(swift build -c release --show-bin-path)/ConstantColorBenchmark" "$@"
