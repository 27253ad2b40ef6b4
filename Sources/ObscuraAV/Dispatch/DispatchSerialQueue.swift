import Dispatch

// Capture code written for iOS 17 and later, Apple's AVCam among it, runs its capture actor on the session's queue:
// a `DispatchSerialQueue` whose `asUnownedSerialExecutor()` becomes the actor's executor. Apple's Dispatch has that
// class and makes every serial queue an executor; the Dispatch of Swift on Linux has neither. So that such code
// compiles and runs unchanged, `DispatchSerialQueue` is the queue type itself (a queue is serial unless made with
// `.concurrent`), and a queue runs an actor's jobs one after another, in order, on its own thread of work.

#if !canImport(Darwin)
    /// A serial dispatch queue: `DispatchQueue` without the `.concurrent` attribute, as Apple's Dispatch names it.
    public typealias DispatchSerialQueue = DispatchQueue

    extension DispatchQueue: @retroactive SerialExecutor {
        /// Runs an actor's job on the queue, after those enqueued before it.
        public func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedSerialExecutor()
            async { job.runSynchronously(on: executor) }
        }

        /// Traps unless the caller runs on the queue: what `assumeIsolated` and isolation checks ask of an executor.
        public func checkIsolated() {
            dispatchPrecondition(condition: .onQueue(self))
        }
    }
#endif
