#!/usr/bin/env bash
# Memory over time: SOAK_SESSIONS (8) parallel session lifecycles for SOAK_SECONDS (600), resident set
# sampled every SOAK_SAMPLE_SECONDS (30); fails when memory after the warm-up grows by more than 10 %
# or a lifecycle stalls. A script, not a test: it takes ten minutes and both cores.
# Usage: tools/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product SoakTest
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$(swift build -c release --show-bin-path)/SoakTest"
