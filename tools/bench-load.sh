# Shared by the benchmark scripts (sourced, not run): the machine's load, and waiting for it to settle.
# A figure measured while other work holds the cores says little; the scripts report the load and refuse to judge
# above BENCH_MAX_LOAD (1.5 by default: on a 2-core machine, more than one core's worth of other work).

BENCH_MAX_LOAD="${BENCH_MAX_LOAD:-1.5}"

# The one-minute load average, from /proc/loadavg.
bench_load() { cut -d' ' -f1 /proc/loadavg; }

# Succeeds when the load is at most BENCH_MAX_LOAD.
bench_quiet() { awk -v l="$(bench_load)" -v m="$BENCH_MAX_LOAD" 'BEGIN { exit !(l <= m) }'; }

# Waits up to BENCH_SETTLE_SECONDS (90 by default) for the load to fall to BENCH_MAX_LOAD: a build just finished
# leaves the one-minute average high for a while. Succeeds when it did.
bench_wait_for_quiet() {
    waited=0
    while ! bench_quiet; do
        [ "$waited" -ge "${BENCH_SETTLE_SECONDS:-90}" ] && return 1
        sleep 5
        waited=$((waited + 5))
    done
    return 0
}
