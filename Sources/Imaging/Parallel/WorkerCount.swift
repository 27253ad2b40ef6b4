import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How many workers a parallel loop starts when its caller does not say.
///
/// The count is the processors this process may actually use, which on a shared Linux machine is
/// less than the processors it can see: the affinity mask (`sched_getaffinity`, set by `taskset`
/// or a container runtime's cpuset) and the cgroup CPU quota (`cpu.max` in cgroup v2,
/// `cpu.cfs_quota_us` / `cpu.cfs_period_us` in v1; a quota of 1.5 CPUs gives 2 workers). More
/// threads than that only queue behind each other. `OBSCURA_THREADS` (a positive integer)
/// overrides both, for measurements and for checking that results do not depend on the count.
package enum WorkerCount {
    /// The environment variable that fixes the worker count.
    package static let environmentVariable = "OBSCURA_THREADS"

    /// The count, worked out once per process.
    package static let current: Int = resolve(environment: ProcessInfo.processInfo.environment)

    /// The count for an environment: its `OBSCURA_THREADS` when that is a positive integer, else
    /// the smaller of the affinity mask and the CPU quota, at least 1.
    package static func resolve(environment: [String: String]) -> Int {
        if let text = environment[environmentVariable], let n = Int(text.trimmingCharacters(in: .whitespaces)),
            n > 0
        {
            return min(n, 256)
        }
        var count = affinityCount() ?? ProcessInfo.processInfo.activeProcessorCount
        if let quota = cgroupQuota() { count = min(count, max(1, Int(quota.rounded(.up)))) }
        return max(1, count)
    }

    /// The processors in this process's affinity mask; nil where the system cannot say.
    ///
    /// glibc declares `sched_getaffinity` only under `_GNU_SOURCE`, which Swift's Glibc module does
    /// not set, so the function is looked up by name in the C library already loaded.
    static func affinityCount() -> Int? {
        #if os(Linux)
        typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "sched_getaffinity") else {
            return nil
        }
        let getAffinity = unsafeBitCast(symbol, to: GetAffinity.self)
        // 1,024 processors' worth of mask, glibc's `cpu_set_t`.
        var mask = [UInt64](repeating: 0, count: 16)
        let status = mask.withUnsafeMutableBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return getAffinity(0, raw.count, base)
        }
        guard status == 0 else { return nil }
        let bits = mask.reduce(0) { $0 + $1.nonzeroBitCount }
        return bits > 0 ? bits : nil
        #else
        return nil
        #endif
    }

    /// The cgroup CPU quota in CPUs (quota ÷ period); nil when there is none or no cgroup file.
    static func cgroupQuota() -> Double? {
        #if os(Linux)
        if let text = try? String(contentsOfFile: "/sys/fs/cgroup/cpu.max", encoding: .utf8) {
            return parseCPUMax(text)
        }
        if let quota = try? String(contentsOfFile: "/sys/fs/cgroup/cpu/cpu.cfs_quota_us", encoding: .utf8),
            let period = try? String(contentsOfFile: "/sys/fs/cgroup/cpu/cpu.cfs_period_us", encoding: .utf8)
        {
            return parseCPUMax(quota.trimmingCharacters(in: .whitespacesAndNewlines) + " " + period)
        }
        #endif
        return nil
    }

    /// cgroup v2's `cpu.max` ("max 100000" for no limit, "150000 100000" for 1.5 CPUs), also used
    /// for v1's quota and period joined by a space (a v1 quota of -1 means no limit).
    package static func parseCPUMax(_ text: String) -> Double? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard parts.count >= 2, let quota = Double(parts[0]), let period = Double(parts[1]), quota > 0, period > 0
        else { return nil }
        return quota / period
    }
}
