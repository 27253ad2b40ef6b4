#!/bin/sh
# A 12 MP Constant Color capture with fallback through the capture API (release build): `PhotoBenchmark
# --constant-color`, from `capturePhoto(with:delegate:)` to the file bytes of both photos, one capture per process
# (so each run includes the scene's geometry pass and the process's start), on the iPhone 15 Pro with
# violets-warm-room. Prints each run's wall time (as the program measures it) and peak resident memory (GNU time's
# maximum resident set), then the medians and the load average before and after.
# Usage: tools/bench-constant-color-api.sh [runs] [OTHER-PHOTOBENCHMARK-BINARY]
# With a second binary (for example one built from another commit with --scratch-path) the two run alternately, so
# that a change in the machine's load falls on both alike. Needs GNU time (/usr/bin/time).
set -eu
cd "$(dirname "$0")/.."
runs=${1:-5}
swift build -c release --product PhotoBenchmark >&2
binaries="$(swift build -c release --show-bin-path)/PhotoBenchmark"
[ $# -ge 2 ] && binaries="$binaries $2"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$runs" ]; do
    for binary in $binaries; do
        key=$(echo "$binary" | cksum | cut -d' ' -f1)
        line=$(OBSCURA_DEVICE=iphone-15-pro OBSCURA_SCENE=violets-warm-room /usr/bin/time -f "%M" -o "$scratch/rss" \
            "$binary" --constant-color | head -1)
        wall=$(echo "$line" | sed -n 's/.* \([0-9.]*\) s wall.*/\1/p')
        echo "$wall $(cat "$scratch/rss")" >>"$scratch/$key"
        echo "$binary: $line, peak RSS $(cat "$scratch/rss") KB"
    done
    i=$((i + 1))
done
for binary in $binaries; do
    key=$(echo "$binary" | cksum | cut -d' ' -f1)
    wall=$(cut -d' ' -f1 "$scratch/$key" | sort -n | sed -n "$(((runs + 1) / 2))p")
    rss=$(cut -d' ' -f2 "$scratch/$key" | sort -n | sed -n "$(((runs + 1) / 2))p")
    echo "$binary: median wall $wall s, median peak RSS $rss KB over $runs runs"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
