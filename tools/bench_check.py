"""Runs the release benchmarks named in Benchmarks/thresholds.json and checks each figure against its limit.

Usage: tools/bench-check.sh [NAME_PREFIX ...]   (e.g. `imageops` for the two image operations only)

Exit status: 0 when every judged figure is within its limit, 1 when one is not, 2 when a benchmark failed to run or
printed no figure, 3 when nothing failed but some figures were not judged because the machine was busy (one-minute
load average above `max_load` before the benchmark, after waiting up to BENCH_SETTLE_SECONDS, 120 by default, for
it to settle). Benchmarks are never part of the test suite: timings on a shared machine are not test results.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def wait_for_quiet(limit):
    deadline = time.monotonic() + float(os.environ.get("BENCH_SETTLE_SECONDS", "120"))
    while load() > limit and time.monotonic() < deadline:
        time.sleep(5)
    return load()


def main(prefixes):
    with open(os.path.join(ROOT, "Benchmarks", "thresholds.json")) as f:
        config = json.load(f)
    limit = float(config["max_load"])
    chosen = [b for b in config["benchmarks"] if not prefixes or any(b["name"].startswith(p) for p in prefixes)]
    if not chosen:
        print(f"no benchmark matches {' '.join(prefixes)}", file=sys.stderr)
        return 2
    products = sorted({b["product"] for b in chosen})
    for product in products:
        subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()

    outputs = {}  # one set of runs per distinct command, shared by the figures read from it

    def run(bench):
        key = (bench["product"], tuple(bench.get("args", [])), tuple(sorted(bench.get("env", {}).items())),
               bench.get("repeat", 1))
        if key not in outputs:
            before = wait_for_quiet(limit)
            texts = []
            for _ in range(bench.get("repeat", 1)):
                env = dict(os.environ, **bench.get("env", {}))
                done = subprocess.run([os.path.join(bin_path, bench["product"])] + bench.get("args", []), cwd=ROOT,
                                      env=env, capture_output=True, text=True)
                if done.returncode != 0:
                    texts = None
                    break
                texts.append(done.stdout)
            outputs[key] = (texts, before, load())
        return outputs[key]

    failed = broken = unjudged = 0
    print(f"{'benchmark':<24} {'figure':>10} {'limit':>12} {'load':>11}  verdict")
    for bench in chosen:
        texts, before, after = run(bench)
        values = []
        for text in texts or []:
            values += [float(m.group(1)) for m in
                       (re.search(bench["pattern"], line) for line in text.splitlines()) if m]
        loads = f"{before:.2f}/{after:.2f}"
        bound = f"≤ {bench['max']}" if "max" in bench else f"≥ {bench['min']}"
        if not values:
            broken += 1
            print(f"{bench['name']:<24} {'-':>10} {bound:>12} {loads:>11}  did not run or printed no figure")
            continue
        value = statistics.median(values)
        figure = f"{value:g} {bench['unit']}"
        if before > limit:
            unjudged += 1
            print(f"{bench['name']:<24} {figure:>10} {bound:>12} {loads:>11}  not judged: load above {limit}")
            continue
        ok = value <= bench["max"] if "max" in bench else value >= bench["min"]
        failed += 0 if ok else 1
        print(f"{bench['name']:<24} {figure:>10} {bound:>12} {loads:>11}  {'ok' if ok else 'FAILED'}")
    print(f"load average before/after each benchmark; limit {limit}; {os.cpu_count()} cores")
    if broken:
        return 2
    if failed:
        return 1
    return 3 if unjudged else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
