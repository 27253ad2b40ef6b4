#!/bin/sh
# Photos in a dependent's plain debug build: a throwaway package that depends on this repository by
# path runs Benchmarks/DebugDependent/DebugPhotoTimes.swift with `swift test` (no -O anywhere), as an
# app's CI would. Prints each test's time (48 MP and 12 MP HEIC photos to bytes, a 48 MP Constant
# Color pair with fallback, an unread 48 MP capture) and the machine's load. Not part of the suite.
#   FILTER=testPhoto12MP tools/bench-debug.sh     runs one of them
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${BENCH_DEBUG_DIR:-$(mktemp -d)}
mkdir -p "$work/Tests/DebugPhotoTimes"
# The package is named by its folder: link the repository in as `obscura`.
ln -sfn "$repo" "$work/obscura"
cat >"$work/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "DebugDependent",
    dependencies: [.package(path: "obscura")],
    targets: [
        .testTarget(name: "DebugPhotoTimes", dependencies: [.product(name: "AVFoundation", package: "obscura")])
    ]
)
SWIFT
cp "$repo/Benchmarks/DebugDependent/DebugPhotoTimes.swift" "$work/Tests/DebugPhotoTimes/"
cd "$work"
swift build --build-tests >/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
OBSCURA_DEVICE=${OBSCURA_DEVICE:-iphone-15-pro} OBSCURA_SCENE=${OBSCURA_SCENE:-violets-warm-room} \
    swift test --skip-build --filter "${FILTER:-DebugPhotoTimes}" 2>&1 | grep -E "debug-time|error|failed" || true
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
