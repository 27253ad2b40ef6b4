import Foundation

extension Emulator {
    /// Advances every running session's streams by `duration` of stream time: video frames at
    /// the active frame duration, depth, audio and metadata with them (DESIGN.md, Time). In
    /// `.virtual` mode it returns once every callback has run, deterministically; in `.realtime`
    /// mode it takes `duration` of wall-clock time and slow delegates see late data dropped.
    /// Inside `withDevice` only the sessions using that task's devices advance.
    /// Call it from a thread other than the delegates' queues.
    public func run(for duration: CMTime) {
        StreamEngine.shared.run(seconds: duration.seconds, frames: nil)
    }

    /// Advances every running session by a number of its video frames.
    public func runFrames(_ count: Int) {
        StreamEngine.shared.run(seconds: nil, frames: count)
    }
}
