#!/bin/sh
# Release-build benchmark of perspective warp and contrast stretch on a 12 MP RGB image, side by side with OpenCV's
# Python API. OpenCV and numpy are installed from PyPI into .bench-venv/ (git-ignored); the Swift build never
# needs them. Usage: tools/bench-imageops.sh [runs]
set -eu
cd "$(dirname "$0")/.."
RUNS="${1:-7}"
VENV=.bench-venv
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet opencv-python-headless numpy
fi
# BENCH_TARGET_CPU=haswell (any LLVM CPU name) builds for that CPU in its own build folder, as OpenCV's wheels pick
# AVX2 kernels at run time; the default is the portable x86-64 (SSE2) build.
set --
if [ -n "${BENCH_TARGET_CPU:-}" ]; then
    set -- -Xswiftc -target-cpu -Xswiftc "$BENCH_TARGET_CPU" --scratch-path ".build-$BENCH_TARGET_CPU"
fi
swift build -c release --product ImageOpsBenchmark "$@"
SWIFT_OUT=$("$(swift build -c release --show-bin-path "$@")/ImageOpsBenchmark" "$RUNS")
CV_OUT=$("$VENV/bin/python" tools/bench_imageops_opencv.py "$RUNS")
echo "4032x3024 RGB, median of $RUNS runs, $(nproc) cores, CPU ${BENCH_TARGET_CPU:-x86-64}, $(date -u +%Y-%m-%d), load average $(uptime | sed 's/.*load average: //')"
printf '%-10s %12s %12s %14s\n' operation "Swift (ms)" "OpenCV (ms)" "OpenCV/Swift"
echo "$SWIFT_OUT" | while read -r name swift_ms; do
    cv_ms=$(echo "$CV_OUT" | awk -v n="$name" '$1 == n {print $2}')
    ratio=$(awk -v a="$cv_ms" -v b="$swift_ms" 'BEGIN {printf "%.2f", a / b}')
    printf '%-10s %12s %12s %14s\n' "$name" "$swift_ms" "$cv_ms" "$ratio"
done
