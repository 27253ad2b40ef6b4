import Foundation
import Imaging
import Testing

/// The parallel loop behind every pixel kernel: each index runs exactly once, whatever the
/// number of workers, and every write is visible when the call returns.
struct WorkerThreadsTests {
    /// Counts per index, written by whichever thread runs the index.
    final class Tally: @unchecked Sendable {
        let counts: UnsafeMutablePointer<Int>
        let threads: UnsafeMutablePointer<pthread_t>
        let count: Int
        init(_ count: Int) {
            self.count = count
            counts = .allocate(capacity: count)
            counts.initialize(repeating: 0, count: count)
            threads = .allocate(capacity: count)
            threads.initialize(repeating: pthread_t(), count: count)
        }
        deinit {
            counts.deallocate()
            threads.deallocate()
        }
    }

    @Test(arguments: [(0, 4), (1, 4), (3, 8), (1000, 1), (1000, 2), (1000, 7), (97, 97)])
    func everyIndexRunsExactlyOnce(count: Int, workers: Int) {
        let tally = Tally(max(count, 1))
        WorkerThreads.forEach(count, workers: workers) { index in
            tally.counts[index] += 1
            tally.threads[index] = pthread_self()
        }
        for index in 0..<count { #expect(tally.counts[index] == 1, "index \(index)") }
        if count == 0 { #expect(tally.counts[0] == 0) }
        // A single worker is the caller itself.
        if workers == 1 {
            for index in 0..<count { #expect(pthread_equal(tally.threads[index], pthread_self()) != 0) }
        }
    }

    @Test func moreThanOneThreadShareTheWorkWhenAsked() {
        // 64 indices of 2 ms each on 4 workers: while the caller sleeps in its first index the
        // started threads claim others, so more than one thread id must appear.
        let tally = Tally(64)
        WorkerThreads.forEach(64, workers: 4) { index in
            tally.threads[index] = pthread_self()
            usleep(2_000)
        }
        var distinct: [pthread_t] = []
        for index in 0..<64 where !distinct.contains(where: { pthread_equal($0, tally.threads[index]) != 0 }) {
            distinct.append(tally.threads[index])
        }
        #expect(distinct.count >= 2)
    }
}
