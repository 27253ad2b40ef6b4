#!/usr/bin/env bash
# Builds one libFuzzer target of the Fuzz/ package and runs it for a number of minutes.
# Usage: tools/fuzz.sh TARGET MINUTES [extra libFuzzer flags...]
#   TARGET: device-profile | scene | scenario | png | output
# The growing corpus is kept in Fuzz/.work/TARGET/corpus (reused by the next run); findings (crash-*, oom-*,
# timeout-*, slow-unit-*) go to Fuzz/crashes/TARGET/. Seeds are the shipped files and the test corpora.
# Environment: FUZZ_RSS_MB (default 2048), FUZZ_MAX_LEN (default 65536 bytes), FUZZ_TIMEOUT (seconds per input,
# default 10; 120 for scenario), FUZZ_SKIP_BUILD=1 to run the binary already built.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 2 ]; then
    sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
target=$1
minutes=$2
shift 2

case "$target" in
    device-profile) product=FuzzDeviceProfile ;;
    scene) product=FuzzScene ;;
    scenario) product=FuzzScenario ;;
    png) product=FuzzPNG ;;
    output) product=FuzzOutput ;;
    *) echo "unknown target '$target' (device-profile, scene, scenario, png, output)" >&2; exit 2 ;;
esac

# -parse-as-library: the targets' entry is an @main type; -sanitize=fuzzer adds coverage and links libFuzzer.
if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
    swift build --package-path Fuzz -c release -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library --product "$product"
fi
binary="$(swift build --package-path Fuzz -c release --show-bin-path)/$product"

work="Fuzz/.work/$target"
crashes="Fuzz/crashes/$target"
mkdir -p "$work/corpus" "$crashes"
rm -rf "$work/seeds"
mkdir -p "$work/seeds"
copy_seeds() {
    for file in "$@"; do
        [ -f "$file" ] && cp "$file" "$work/seeds/$(echo "$file" | tr '/' '_')"
    done
    return 0
}
shopt -s nullglob
case "$target" in
    device-profile) copy_seeds DeviceProfiles/*.yaml Tests/DevicesTests/Broken/* ;;
    scene)
        for file in Scenes/*.yaml; do
            case "$file" in *.scenario.yaml) ;; *) copy_seeds "$file" ;; esac
        done
        copy_seeds Tests/ScenesTests/Broken/* ;;
    scenario) copy_seeds Scenes/*.scenario.yaml Tests/ScenariosTests/Broken/* ;;
    png) copy_seeds Tests/ImagingTests/Corpus/*.png ;;
    output) copy_seeds Fuzz/Seeds/output/* ;;
esac

# The scenario target runs what it loads, photos and streams included: an input takes seconds, not
# milliseconds, so it gets two minutes before it counts as a hang.
default_timeout=10
[ "$target" = scenario ] && default_timeout=120
log="$work/last-run.log"
before=$(ls "$crashes" | wc -l)
# New inputs go to the first directory only; the seeds stay as shipped.
set +e
"$binary" "$work/corpus" "$work/seeds" \
    -max_total_time=$((minutes * 60)) \
    -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -max_len="${FUZZ_MAX_LEN:-65536}" \
    -timeout="${FUZZ_TIMEOUT:-$default_timeout}" \
    -artifact_prefix="$crashes/" \
    -print_final_stats=1 \
    "$@" 2>&1 | tee "$log" | grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE)'
status=${PIPESTATUS[0]}
set -e

executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
after=$(ls "$crashes" | wc -l)
echo
echo "target:     $target ($product)"
echo "executions: ${executions:-unknown} in $minutes minute(s)"
echo "corpus:     $(ls "$work/corpus" | wc -l) inputs in $work/corpus"
echo "findings:   $((after - before)) new in $crashes/"
for file in $(ls -t "$crashes" | head -n $((after - before))); do
    echo "  $crashes/$file"
done
exit "$status"
