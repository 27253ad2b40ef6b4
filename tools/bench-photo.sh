#!/bin/sh
# Ordinary 12 MP photo through the capture API (release build), and `obscura render` of the same
# kind of picture: violets-warm-room on the iPhone 15 Pro, one photo per process (so each run
# includes the geometry pass), RUNS runs (default 5). Prints each run, the machine's load and the
# medians of wall time; /usr/bin/time gives the render's peak resident memory.
set -e
cd "$(dirname "$0")/.."
swift build -c release --product PhotoBenchmark >/dev/null
swift build -c release --product obscura >/dev/null
runs=${RUNS:-5}
out=$(mktemp -d)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
photo=""
render=""
while [ "$i" -lt "$runs" ]; do
    line=$(OBSCURA_DEVICE=iphone-15-pro OBSCURA_SCENE=violets-warm-room .build/release/PhotoBenchmark | head -1)
    echo "api: $line"
    photo="$photo $(echo "$line" | sed -n 's/.* \([0-9.]*\) s wall.*/\1/p')"
    /usr/bin/time -f "%e %M" -o "$out/time" .build/release/obscura render violets-warm-room --flash \
        --size 4032x3024 --out "$out/x.png" >/dev/null
    echo "render: $(cut -d' ' -f1 "$out/time") s wall, $(cut -d' ' -f2 "$out/time") KB peak"
    render="$render $(cut -d' ' -f1 "$out/time")"
    i=$((i + 1))
done
median() { echo "$1" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f", m}'; }
echo "median: API photo $(median "$photo") s, obscura render $(median "$render") s"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$out"
