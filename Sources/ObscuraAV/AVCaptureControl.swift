import Foundation

/// A control the Camera Control button of an iPhone 16 presents (`AVCaptureControl`, iOS 18): the base of the
/// system sliders, `AVCaptureSlider` and `AVCaptureIndexPicker`. None of the emulated phones has the button, so a
/// session accepts no control (spec §1.6); the controls still hold their values as apps set them.
open class AVCaptureControl: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var enabled = true

    override init() { super.init() }

    /// Whether people may interact with the control; true at first.
    open var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set { lock.withLock { enabled = newValue } }
    }
}

/// A slider that sets the device's zoom factor (`AVCaptureSystemZoomSlider`).
open class AVCaptureSystemZoomSlider: AVCaptureControl, @unchecked Sendable {
    /// The device the slider zooms.
    let device: AVCaptureDevice
    /// Called on the main actor when the slider changes the zoom factor.
    let action: (@MainActor (CGFloat) -> Void)?

    /// A zoom slider for `device`.
    public init(device: AVCaptureDevice) {
        self.device = device
        action = nil
        super.init()
    }

    /// A zoom slider for `device` whose `action` runs when the slider changes the zoom factor.
    public init(device: AVCaptureDevice, action: @escaping @MainActor (CGFloat) -> Void) {
        self.device = device
        self.action = action
        super.init()
    }
}

/// A slider that sets the device's exposure bias (`AVCaptureSystemExposureBiasSlider`).
open class AVCaptureSystemExposureBiasSlider: AVCaptureControl, @unchecked Sendable {
    /// The device whose bias the slider sets.
    let device: AVCaptureDevice
    /// Called on the main actor when the slider changes the bias.
    let action: (@MainActor (Float) -> Void)?

    /// An exposure-bias slider for `device`.
    public init(device: AVCaptureDevice) {
        self.device = device
        action = nil
        super.init()
    }

    /// An exposure-bias slider for `device` whose `action` runs when the slider changes the bias.
    public init(device: AVCaptureDevice, action: @escaping @MainActor (Float) -> Void) {
        self.device = device
        self.action = action
        super.init()
    }
}

/// An app's own slider over a range of values (`AVCaptureSlider`).
open class AVCaptureSlider: AVCaptureControl, @unchecked Sendable {
    /// What the slider may take: a range with an optional step, or a list of values.
    private enum Values {
        case range(ClosedRange<Float>, step: Float?)
        case list([Float])
    }

    private let lock = NSLock()
    private let values: Values
    private var current: Float
    private var format: String?
    private var prominent: [Float] = []
    private var identifier: String?
    private var actionQueue: DispatchQueue?
    private var action: ((Float) -> Void)?

    /// The slider's title, as shown.
    public let localizedTitle: String
    /// The SF Symbol shown with it.
    public let symbolName: String

    /// A slider over a continuous range; its value starts at the lower bound.
    public init(_ localizedTitle: String, symbolName: String, in range: ClosedRange<Float>) {
        (self.localizedTitle, self.symbolName) = (localizedTitle, symbolName)
        values = .range(range, step: nil)
        current = range.lowerBound
        super.init()
    }

    /// A slider over a range in steps from its lower bound; its value starts at the lower bound.
    public init(_ localizedTitle: String, symbolName: String, in range: ClosedRange<Float>, step: Float) {
        (self.localizedTitle, self.symbolName) = (localizedTitle, symbolName)
        values = .range(range, step: step > 0 ? step : nil)
        current = range.lowerBound
        super.init()
    }

    /// A slider over a list of values; its value starts at the smallest.
    public init(_ localizedTitle: String, symbolName: String, values: [Float]) {
        (self.localizedTitle, self.symbolName) = (localizedTitle, symbolName)
        let sorted = values.sorted()
        self.values = .list(sorted)
        current = sorted.first ?? 0
        super.init()
    }

    /// The value: set within the range, on a step or a listed value, the nearest one (spec §1.6).
    open var value: Float {
        get { lock.withLock { current } }
        set { lock.withLock { current = allowed(newValue) } }
    }

    /// The nearest value the slider may take.
    private func allowed(_ v: Float) -> Float {
        switch values {
        case let .range(range, step):
            let clamped = min(max(v, range.lowerBound), range.upperBound)
            guard let step else { return clamped }
            let n = ((clamped - range.lowerBound) / step).rounded()
            return min(range.lowerBound + n * step, range.upperBound)
        case let .list(list):
            return list.min { abs($0 - v) < abs($1 - v) } ?? v
        }
    }

    /// A format for the value, such as `"%.1f×"`.
    open var localizedValueFormat: String? {
        get { lock.withLock { format } }
        set { lock.withLock { format = newValue } }
    }

    /// Values the slider marks.
    open var prominentValues: [Float] {
        get { lock.withLock { prominent } }
        set { lock.withLock { prominent = newValue } }
    }

    /// An identifier for accessibility.
    open var accessibilityIdentifier: String? {
        get { lock.withLock { identifier } }
        set { lock.withLock { identifier = newValue } }
    }

    /// The action to run on `actionQueue` when the button moves the slider.
    open func setActionQueue(_ actionQueue: DispatchQueue, action: @escaping (Float) -> Void) {
        lock.withLock { (self.actionQueue, self.action) = (actionQueue, action) }
    }
}

/// An app's own picker among indexed choices (`AVCaptureIndexPicker`).
open class AVCaptureIndexPicker: AVCaptureControl, @unchecked Sendable {
    private let lock = NSLock()
    private var selected = 0
    private var identifier: String?
    private var actionQueue: DispatchQueue?
    private var action: ((Int) -> Void)?

    /// The picker's title, as shown.
    public let localizedTitle: String
    /// The SF Symbol shown with it.
    public let symbolName: String
    /// How many choices it has.
    public let numberOfIndexes: Int
    /// The choices' titles.
    public let localizedIndexTitles: [String]

    /// A picker of `numberOfIndexes` choices titled by their numbers.
    public convenience init(_ localizedTitle: String, symbolName: String, numberOfIndexes: Int) {
        self.init(localizedTitle, symbolName: symbolName, numberOfIndexes: numberOfIndexes) { String($0) }
    }

    /// A picker of `numberOfIndexes` choices titled by `localizedTitleTransform`.
    public init(
        _ localizedTitle: String, symbolName: String, numberOfIndexes: Int,
        localizedTitleTransform: @escaping (Int) -> String
    ) {
        (self.localizedTitle, self.symbolName) = (localizedTitle, symbolName)
        self.numberOfIndexes = max(0, numberOfIndexes)
        localizedIndexTitles = (0..<max(0, numberOfIndexes)).map(localizedTitleTransform)
        super.init()
    }

    /// A picker of the titled choices.
    public init(_ localizedTitle: String, symbolName: String, localizedIndexTitles: [String]) {
        (self.localizedTitle, self.symbolName) = (localizedTitle, symbolName)
        numberOfIndexes = localizedIndexTitles.count
        self.localizedIndexTitles = localizedIndexTitles
        super.init()
    }

    /// The chosen index, held among the indexes (spec §1.6); 0 at first.
    open var selectedIndex: Int {
        get { lock.withLock { selected } }
        set { lock.withLock { selected = min(max(newValue, 0), max(numberOfIndexes - 1, 0)) } }
    }

    /// An identifier for accessibility.
    open var accessibilityIdentifier: String? {
        get { lock.withLock { identifier } }
        set { lock.withLock { identifier = newValue } }
    }

    /// The action to run on `actionQueue` when the button moves the picker.
    open func setActionQueue(_ actionQueue: DispatchQueue, action: @escaping (Int) -> Void) {
        lock.withLock { (self.actionQueue, self.action) = (actionQueue, action) }
    }
}
