import Foundation

/// Plays a movie on the host clock (`AVPlayer`): camera apps show a clip just recorded, and tests check that it
/// plays to its end (Capture rules §25 rules 13 and 14).
///
/// There is no screen or loudspeaker here: playing moves the item's time, fires the time observers and posts the
/// end notification, and a video output or layer shows the pictures of that time; the sound is not played.
open class AVPlayer: NSObject, @unchecked Sendable, _KeyValueCodingAndObserving, ObservationHost {
    /// Whether the player can play (`AVPlayer.Status`).
    public enum Status: Int, Sendable {
        case unknown = 0
        case readyToPlay = 1
        case failed = 2
    }

    /// Whether time moves (`AVPlayer.TimeControlStatus`).
    public enum TimeControlStatus: Int, Sendable {
        case paused = 0
        case waitingToPlayAtSpecifiedRate = 1
        case playing = 2
    }

    /// What happens when an item has played to its end (`AVPlayer.ActionAtItemEnd`).
    public enum ActionAtItemEnd: Int, Sendable {
        case advance = 0
        case pause = 1
        case none = 2
    }

    /// Why a player with a rate is not playing (`AVPlayer.WaitingReason`).
    public struct WaitingReason: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let noItemToPlay = WaitingReason(rawValue: "AVPlayerWaitingWithNoItemToPlayReason")
        public static let evaluatingBufferingRate = WaitingReason(
            rawValue: "AVPlayerWaitingWhileEvaluatingBufferingRateReason")
        public static let toMinimizeStalls = WaitingReason(rawValue: "AVPlayerWaitingToMinimizeStallsReason")
    }

    let observers = ObserverRegistry()
    let lock = NSLock()
    private var item: AVPlayerItem?
    private var playRate: Float = 0
    private var control = TimeControlStatus.paused
    private var atEnd: ActionAtItemEnd
    private var endReported = false
    private var timeObservers: [TimeObserver] = []
    private var nextObserverID = 0
    private var ticker: DispatchSourceTimer?
    /// The player's own queue: the ticker's, where items end and observers are scheduled.
    private let queue = DispatchQueue(label: "AVPlayer")

    /// The volume, 0 to 1 (no sound is played here).
    open var volume: Float = 1
    /// Whether the sound is muted (no sound is played here).
    open var isMuted = false
    /// Whether playback waits to avoid stalls; a local file never stalls, so it changes nothing.
    open var automaticallyWaitsToMinimizeStalling = true
    /// The rate `play()` starts at.
    open var defaultRate: Float = 1
    /// Whether the player may play while the app is in the background (nothing changes here).
    open var preventsDisplaySleepDuringVideoPlayback = true

    /// A player with no item.
    public override init() {
        atEnd = .pause
        super.init()
    }

    /// A player of the movie at `url`.
    public convenience init(url URL: URL) {
        self.init(playerItem: AVPlayerItem(url: URL))
    }

    /// A player of `item`.
    public init(playerItem item: AVPlayerItem?) {
        atEnd = .pause
        super.init()
        replaceCurrentItem(with: item)
    }

    init(actionAtItemEnd: ActionAtItemEnd) {
        atEnd = actionAtItemEnd
        super.init()
    }

    /// Ready at once: nothing stands between a player and a local file.
    open var status: Status { .readyToPlay }
    /// Nil: the player itself never fails here (an item may).
    open var error: (any Error)? { nil }

    /// The item playing; key-value observable.
    open var currentItem: AVPlayerItem? { lock.withLock { item } }

    /// Plays `item` instead, from its own current time, at the player's rate.
    open func replaceCurrentItem(with item: AVPlayerItem?) {
        let old: AVPlayerItem? = lock.withLock {
            let old = self.item
            self.item = item
            endReported = false
            return old
        }
        old?.setRate(0)
        observers.didChange(\AVPlayer.currentItem)
        itemChanged()
    }

    /// The rate time moves at (0 paused, 1 normal speed); key-value observable.
    open var rate: Float {
        get { lock.withLock { playRate } }
        set {
            lock.withLock { playRate = newValue }
            observers.didChange(\AVPlayer.rate)
            update()
            callPeriodicObservers()
        }
    }

    /// Plays at `defaultRate`.
    open func play() { rate = defaultRate }
    /// Plays at `rate` at once: a local file needs no buffering, so this is setting the rate.
    open func playImmediately(atRate rate: Float) { self.rate = rate }
    /// Readies playback at `rate`; nothing needs loading here, so `completionHandler` gets true on another queue.
    open func preroll(atRate rate: Float, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        if let completionHandler { DispatchQueue.global().async { completionHandler(true) } }
    }
    /// Cancels prerolls; they finish at once here.
    open func cancelPendingPrerolls() {}
    /// Whether the player may play on an external screen (AirPlay); there is none here.
    open var allowsExternalPlayback = true
    /// False: there is no external screen.
    open var isExternalPlaybackActive: Bool { false }
    /// Whether playback moves to an external screen when one mirrors the display; there is none here.
    open var usesExternalPlaybackWhileExternalScreenIsActive = false
    /// Pauses.
    open func pause() { rate = 0 }

    /// Whether time moves, or waits for the item to be ready; key-value observable.
    open var timeControlStatus: TimeControlStatus { lock.withLock { control } }

    /// Why the player waits; nil unless `timeControlStatus` is `.waitingToPlayAtSpecifiedRate`.
    open var reasonForWaitingToPlay: WaitingReason? {
        lock.withLock {
            guard control == .waitingToPlayAtSpecifiedRate else { return nil }
            return item == nil ? .noItemToPlay : .evaluatingBufferingRate
        }
    }

    /// What happens at an item's end (`.pause` by default; `.advance` for a queue player).
    open var actionAtItemEnd: ActionAtItemEnd {
        get { lock.withLock { atEnd } }
        set { lock.withLock { atEnd = newValue } }
    }

    /// The current item's time (`.zero` without one).
    open func currentTime() -> CMTime { currentItem?.currentTime() ?? .zero }

    /// Moves the current item to `time`; `completionHandler` gets true on another queue.
    open func seek(to time: CMTime, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        guard let item = currentItem else {
            if let completionHandler { DispatchQueue.global().async { completionHandler(false) } }
            return
        }
        item.move(to: time)
        lock.withLock { endReported = false }
        NotificationCenter.default.post(name: AVPlayerItem.timeJumpedNotification, object: item)
        callPeriodicObservers()
        if let completionHandler { DispatchQueue.global().async { completionHandler(true) } }
    }

    /// The same, tolerances aside: the item lands exactly on `time`.
    open func seek(
        to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime,
        completionHandler: (@Sendable (Bool) -> Void)? = nil
    ) {
        seek(to: time, completionHandler: completionHandler)
    }

    /// Moves to `time` and returns whether the seek finished.
    open func seek(to time: CMTime) async -> Bool {
        await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            seek(to: time) { done.resume(returning: $0) }
        }
    }

    /// Sets the rate from a time: here, from now (`time` and `hostClockTime` are taken as now).
    open func setRate(_ rate: Float, time itemTime: CMTime, atHostTime hostClockTime: CMTime) {
        if itemTime.isNumeric { currentItem?.move(to: itemTime) }
        self.rate = rate
    }

    // MARK: - Time observers

    /// Calls `block` on `queue` every `interval` of item time while playing, and when playback starts, stops or
    /// jumps (rule 14). Returns the token `removeTimeObserver(_:)` takes.
    open func addPeriodicTimeObserver(
        forInterval interval: CMTime, queue: DispatchQueue?, using block: @escaping @Sendable (CMTime) -> Void
    ) -> Any {
        let now = currentTime().seconds
        return lock.withLock {
            nextObserverID += 1
            let seconds = interval.isNumeric && interval.seconds > 0 ? interval.seconds : 0.1
            timeObservers.append(
                TimeObserver(
                    id: nextObserverID, kind: .periodic(seconds), queue: queue ?? .main, block: block, last: now))
            return TimeObserverToken(id: nextObserverID)
        }
    }

    /// Calls `block` on `queue` whenever playback passes one of `times` (`NSValue(time:)`).
    open func addBoundaryTimeObserver(
        forTimes times: [NSValue], queue: DispatchQueue?, using block: @escaping @Sendable () -> Void
    ) -> Any {
        let now = currentTime().seconds
        return lock.withLock {
            nextObserverID += 1
            timeObservers.append(
                TimeObserver(
                    id: nextObserverID, kind: .boundary(times.map(\.timeValue.seconds).sorted()),
                    queue: queue ?? .main, block: { _ in block() }, last: now))
            return TimeObserverToken(id: nextObserverID)
        }
    }

    /// Stops a time observer.
    open func removeTimeObserver(_ observer: Any) {
        guard let token = observer as? TimeObserverToken else { return }
        lock.withLock { timeObservers.removeAll { $0.id == token.id } }
    }

    // MARK: - Playing

    /// The item changed: it is attached (and becomes ready), then time runs as the rate says.
    private func itemChanged() {
        guard let item = currentItem else { return update() }
        update()
        item.attach { [weak self] in self?.update() }
    }

    /// Sets the item's rate and the time control status from the rate, the item and its end, and runs the ticker
    /// while time moves.
    func update() {
        let (item, rate) = lock.withLock { (self.item, playRate) }
        let ready = item?.status == .readyToPlay
        let status: TimeControlStatus = rate == 0 ? .paused : ready ? .playing : .waitingToPlayAtSpecifiedRate
        item?.setRate(ready ? Double(rate) : 0)
        let changed = lock.withLock {
            defer { control = status }
            return control != status
        }
        if status == .playing { startTicker() } else { stopTicker() }
        if changed { observers.didChange(\AVPlayer.timeControlStatus) }
    }

    private func startTicker() {
        lock.withLock {
            guard ticker == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now(), repeating: .milliseconds(5), leeway: .milliseconds(2))
            timer.setEventHandler { [weak self] in self?.tick() }
            ticker = timer
            timer.resume()
        }
    }

    private func stopTicker() {
        lock.withLock {
            ticker?.cancel()
            ticker = nil
        }
    }

    /// One look at the clock: time observers whose moment has come, and the item's end.
    private func tick() {
        guard let item = currentItem else { return }
        let now = item.currentTime().seconds
        fireObservers(at: now, jumped: false)
        let rate = self.rate
        // Playing backwards stops at the start, which is no end of the item: nothing is posted.
        if rate < 0, now <= 0 { return self.rate = 0 }
        guard rate > 0, now >= item.end else { return }
        let first = lock.withLock {
            defer { endReported = true }
            return !endReported
        }
        guard first else { return }
        NotificationCenter.default.post(name: AVPlayerItem.didPlayToEndTimeNotification, object: item)
        itemDidEnd(item)
    }

    /// What the player does when `item` has played to its end (rule 13).
    func itemDidEnd(_ item: AVPlayerItem) {
        switch actionAtItemEnd {
        case .pause, .advance: rate = 0
        case .none: update()
        }
    }

    /// Calls every periodic observer now: playback started, stopped or jumped.
    private func callPeriodicObservers() {
        let now = currentItem?.currentTime().seconds ?? 0
        fireObservers(at: now, jumped: true)
    }

    private func fireObservers(at now: Double, jumped: Bool) {
        var due: [(DispatchQueue, @Sendable (CMTime) -> Void)] = []
        lock.withLock {
            for i in timeObservers.indices {
                let observer = timeObservers[i]
                switch observer.kind {
                case let .periodic(interval):
                    let passed = (now / interval).rounded(.down) > (observer.last / interval).rounded(.down)
                    if jumped || passed || now < observer.last { due.append((observer.queue, observer.block)) }
                case let .boundary(times):
                    if !jumped, times.contains(where: { $0 > observer.last && $0 <= now }) {
                        due.append((observer.queue, observer.block))
                    }
                }
                timeObservers[i].last = now
            }
        }
        let time = CMTime(seconds: now, preferredTimescale: 600)
        for (queue, block) in due { queue.async { block(time) } }
    }

    deinit { ticker?.cancel() }

    /// One time observer and the item time it last saw.
    private struct TimeObserver {
        enum Kind {
            case periodic(Double)
            case boundary([Double])
        }
        let id: Int
        let kind: Kind
        let queue: DispatchQueue
        let block: @Sendable (CMTime) -> Void
        var last: Double
    }
}

/// The token a time observer is removed by.
final class TimeObserverToken: NSObject, @unchecked Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

/// Plays items one after another (`AVQueuePlayer`): at an item's end the next one plays.
open class AVQueuePlayer: AVPlayer, @unchecked Sendable {
    private let queueLock = NSLock()
    private var waiting: [AVPlayerItem] = []
    /// Called with the item that ended, after the next has started (`AVPlayerLooper` refills the queue).
    var onAdvance: (@Sendable (AVPlayerItem) -> Void)?

    /// A queue player of `items`, the first playing.
    public init(items: [AVPlayerItem]) {
        super.init(actionAtItemEnd: .advance)
        waiting = Array(items.dropFirst())
        if let first = items.first { replaceCurrentItem(with: first) }
    }

    /// A queue player with no items.
    public override init() {
        super.init(actionAtItemEnd: .advance)
    }

    /// The items: the current one, then those waiting.
    open func items() -> [AVPlayerItem] {
        (currentItem.map { [$0] } ?? []) + queueLock.withLock { waiting }
    }

    /// Plays the next item now.
    open func advanceToNextItem() {
        let next: AVPlayerItem? = queueLock.withLock { waiting.isEmpty ? nil : waiting.removeFirst() }
        replaceCurrentItem(with: next)
    }

    /// Whether `item` can be queued: an item is in one queue at most.
    open func canInsert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) -> Bool {
        !items().contains { $0 === item }
    }

    /// Queues `item` after `afterItem` (at the end for nil); the first item queued in an empty player plays.
    open func insert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) {
        guard canInsert(item, after: afterItem) else { return }
        if currentItem == nil {
            replaceCurrentItem(with: item)
            return
        }
        queueLock.withLock {
            if let afterItem, let index = waiting.firstIndex(where: { $0 === afterItem }) {
                waiting.insert(item, at: index + 1)
            } else {
                waiting.append(item)
            }
        }
    }

    /// Takes `item` out of the queue; the current item's removal plays the next.
    open func remove(_ item: AVPlayerItem) {
        if currentItem === item { return advanceToNextItem() }
        queueLock.withLock { waiting.removeAll { $0 === item } }
    }

    /// Empties the queue and stops.
    open func removeAllItems() {
        queueLock.withLock { waiting.removeAll() }
        replaceCurrentItem(with: nil)
    }

    override func itemDidEnd(_ item: AVPlayerItem) {
        guard actionAtItemEnd == .advance else { return super.itemDidEnd(item) }
        advanceToNextItem()
        onAdvance?(item)
    }
}

/// Plays one item over and over (`AVPlayerLooper`) through a queue player, by keeping copies of it queued.
open class AVPlayerLooper: NSObject, @unchecked Sendable {
    /// Whether looping runs (`AVPlayerLooper.Status`).
    public enum Status: Int, Sendable {
        case unknown = 0
        case ready = 1
        case failed = 2
        case cancelled = 3
    }

    private let lock = NSLock()
    private let template: AVPlayerItem
    private weak var player: AVQueuePlayer?
    private var loops = 0
    private var looping = true
    private var copies: [AVPlayerItem] = []

    /// Loops `templateItem` on `player`, replacing what it had queued; the time range is the whole item here.
    public init(player: AVQueuePlayer, templateItem itemToLoop: AVPlayerItem, timeRange loopRange: CMTimeRange) {
        template = itemToLoop
        self.player = player
        super.init()
        player.removeAllItems()
        let made = (0..<3).map { _ in itemToLoop.replica() }
        copies = made
        for item in made { player.insert(item, after: nil) }
        player.onAdvance = { [weak self] ended in self?.advanced(past: ended) }
    }

    /// Loops the whole of `templateItem` on `player`.
    public convenience init(player: AVQueuePlayer, templateItem itemToLoop: AVPlayerItem) {
        self.init(player: player, templateItem: itemToLoop, timeRange: CMTimeRange.invalid)
    }

    /// How many times the item has played to its end.
    open var loopCount: Int { lock.withLock { loops } }
    /// `.ready` while looping, `.cancelled` once disabled, `.failed` when the item cannot play.
    open var status: Status {
        if template.asset.contents.failure != nil { return .failed }
        return lock.withLock { looping ? .ready : .cancelled }
    }
    /// The error when the status is `.failed`.
    open var error: (any Error)? { template.asset.contents.failure }
    /// The copies of the item in the player's queue.
    open var loopingPlayerItems: [AVPlayerItem] { lock.withLock { copies } }

    /// Stops looping: the queued copies play out, and none is added.
    open func disableLooping() { lock.withLock { looping = false } }

    private func advanced(past ended: AVPlayerItem) {
        let refill: AVPlayerItem? = lock.withLock {
            loops += 1
            guard looping else { return nil }
            let copy = template.replica()
            copies.removeAll { $0 === ended }
            copies.append(copy)
            return copy
        }
        if let refill { player?.insert(refill, after: nil) }
    }
}

extension Result {
    /// The error of a failure, nil for a success.
    var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
