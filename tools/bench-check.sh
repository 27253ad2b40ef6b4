#!/bin/sh
# Runs the release benchmarks and fails when a figure exceeds its limit in Benchmarks/thresholds.json; figures
# measured while the machine is busy are reported but not judged. See tools/bench_check.py for the exit codes.
# Usage: tools/bench-check.sh [NAME_PREFIX ...]
set -eu
cd "$(dirname "$0")/.."
exec python3 tools/bench_check.py "$@"
