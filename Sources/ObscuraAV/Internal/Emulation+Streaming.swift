import Foundation

extension Emulation {
    /// Advances every running session's streams by `duration` of stream time: video frames at
    /// the active frame duration, depth, audio and metadata with them (Testing on Linux, “Control the clock”).
    ///
    /// With the `.manual` clock this emits the frames and returns once every callback has run, so
    /// frame counts are exact. With the `.virtual` and `.realtime` clocks the streams run by
    /// themselves; this waits until they have advanced by `duration` (at the renderer's pace or the
    /// wall clock's). Inside `withDevice` only the sessions using that task's devices advance.
    /// Call it from a thread other than the delegates' queues.
    package func run(for duration: CMTime) {
        StreamEngine.shared.run(seconds: duration.seconds, frames: nil)
    }

    /// Advances every running session by a number of its video frames, as `run(for:)` does.
    package func runFrames(_ count: Int) {
        StreamEngine.shared.run(seconds: nil, frames: count)
    }
}
