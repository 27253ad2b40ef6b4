#!/bin/sh
# Free-running streaming benchmark (release build), written as an app writes capture code: the
# iPhone 7 Plus dual camera (chosen with OBSCURA_DEVICE), 1440x1080 video at 30 fps with 320x240
# depth, the microphone's audio and a synchronizer, 300 frames. Prints each run, the machine's
# load, and the median frames per wall-clock second of RUNS runs (default 5).
set -e
cd "$(dirname "$0")/.."
swift build -c release --product StreamingBenchmark >/dev/null
runs=${RUNS:-5}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
rates=""
while [ "$i" -lt "$runs" ]; do
    line=$(OBSCURA_DEVICE=iphone-7-plus .build/release/StreamingBenchmark)
    echo "$line"
    rates="$rates $(echo "$line" | sed -n 's/.*: \([0-9.]*\) frames\/s.*/\1/p')"
    i=$((i + 1))
done
echo "$rates" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "median: %.1f frames/s (%.1fx real time)\n", m, m/30}'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
