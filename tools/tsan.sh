#!/usr/bin/env bash
# Runs the tests that cross threads under the thread sanitizer; fails on any report not suppressed.
# Usage: tools/tsan.sh [all | SWIFT-TEST-FILTER...]
#   no argument: the concurrency-relevant suites (ObscuraAVTests: sessions, streaming, photo capture, the
#   synchronizer, world isolation; DropInTests: the conformance suite); `all`: every test; otherwise the filters
#   given. The build lives in .build-tsan/ so it does not disturb the ordinary one. -O keeps rendering bearable.
# Suppressions, each with its reason: tools/tsan-suppressions.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

flags=(--sanitize=thread -Xswiftc -O --scratch-path .build-tsan)
swift build --build-tests "${flags[@]}"

filters=()
if [ $# -eq 0 ]; then
    filters=(--filter ObscuraAVTests --filter DropInTests)
elif [ "$1" != all ]; then
    for filter in "$@"; do filters+=(--filter "$filter"); done
fi

log=.build-tsan/tsan-last-run.log
# halt_on_error=0: one run lists every race, not just the first; the exit code still reports them.
TSAN_OPTIONS="suppressions=$PWD/tools/tsan-suppressions.txt halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
export TSAN_OPTIONS
set +e
swift test --skip-build "${flags[@]}" "${filters[@]}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
reports=$(grep -c '^WARNING: ThreadSanitizer' "$log" || true)
echo
echo "thread sanitizer: $reports report(s); swift test exit status $status (log: $log)"
[ "$reports" -eq 0 ] && [ "$status" -eq 0 ]
