#!/bin/sh
# Peak memory (maximum resident set, KB as GNU time reports it) and wall time of a full-size `obscura render`
# (release build), the median of several runs.
# Usage: tools/bench-render-memory.sh [runs] [OTHER-OBSCURA-BINARY]
# With a second binary (for example one built from another commit with --scratch-path) the two are run
# alternately, so that a change in the machine's load falls on both alike. Needs GNU time (/usr/bin/time).
set -eu
cd "$(dirname "$0")/.."
runs=${1:-5}
swift build -c release --product obscura >&2
binaries="$(swift build -c release --show-bin-path)/obscura"
[ $# -ge 2 ] && binaries="$binaries $2"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
    for binary in $binaries; do
        key=$(echo "$binary" | cksum | cut -d' ' -f1)
        /usr/bin/time -f "%M %e" -o "$scratch/time" "$binary" render violets-warm-room --flash --size 4032x3024 \
            --out "$scratch/photo.png" >/dev/null 2>&1
        cat "$scratch/time" >>"$scratch/$key"
    done
    i=$((i + 1))
done
for binary in $binaries; do
    key=$(echo "$binary" | cksum | cut -d' ' -f1)
    rss=$(cut -d' ' -f1 "$scratch/$key" | sort -n | sed -n "$(((runs + 1) / 2))p")
    wall=$(cut -d' ' -f2 "$scratch/$key" | sort -n | sed -n "$(((runs + 1) / 2))p")
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "$binary: median peak RSS $rss KB, median wall $wall s over $runs runs (load $load)"
done
