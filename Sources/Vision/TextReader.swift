import Foundation

/// One line of text read from a picture: its characters, how sure the reader is, and where each character lies.
struct ReadTextLine: Sendable, Equatable {
    /// The line's words joined by single spaces.
    let text: String
    /// The reader's confidence in the line, 0…1.
    let confidence: Float
    /// The line's box in the picture's pixels (origin at the top left).
    let box: PixelBox
    /// One box per character of `text`, in the same order; nil for the spaces between words.
    let characterBoxes: [PixelBox?]

    /// The line's words, each as its characters' boxes.
    var words: [[PixelBox]] {
        characterBoxes.split(separator: nil).map { $0.compactMap { $0 } }
    }
}

/// A box in a picture's pixels, origin at the top-left corner, right and bottom exclusive.
struct PixelBox: Sendable, Equatable {
    let left: Int, top: Int, right: Int, bottom: Int

    /// The smallest box holding all of `boxes`; nil for none.
    static func union(_ boxes: some Collection<PixelBox>) -> PixelBox? {
        boxes.dropFirst().reduce(boxes.first) { $0?.union($1) }
    }

    /// The smallest box holding both.
    func union(_ other: PixelBox) -> PixelBox {
        PixelBox(
            left: min(left, other.left), top: min(top, other.top), right: max(right, other.right),
            bottom: max(bottom, other.bottom))
    }
}

/// Reads printed text from 8-bit luma with Tesseract (the LSTM engine of libtesseract 5, loaded when the program
/// runs), so what the camera imaged (the text's size in pixels, blur, angle, noise and exposure) decides what is
/// read, as it does for a phone's reader. Where the library or a language's trained data is missing, nothing is
/// read and `isAvailable` says so.
///
/// Tesseract's engines are not safe to share between threads, so the reader lets one caller use them at a time. An
/// engine takes a fraction of a second to start and holds its languages' models, so the reader keeps the engines of
/// the last few setups (`keptEngines`) and closes the oldest beyond them.
enum TextReader {
    /// Whether libtesseract loads and English can be read.
    static var isAvailable: Bool { library != nil && installedLanguages.contains("eng") }

    /// The languages whose trained data is installed, by Tesseract's names (`eng`, `deu`, `fra`, …).
    static var installedLanguages: Set<String> { installed }

    /// How the recogniser is set up: its languages (Tesseract names, all installed), whether it corrects words by
    /// the languages' word lists, and words to add to those lists.
    struct Setup: Hashable {
        var languages: [String]
        var correctsWords = true
        var customWords: [String] = []
    }

    /// The lines of text in `luma` (`width × height`, rows packed, top row first), in reading order: top to bottom,
    /// then left to right. Empty when the reader is missing.
    ///
    /// `watch`, when given, hears the recogniser's progress as it reads, and stops it when it answers that the
    /// reading was cancelled; a stopped reading returns nil.
    static func read(luma: [UInt8], width: Int, height: Int, setup: Setup, watch: Watch? = nil) -> [ReadTextLine]? {
        guard let api = library, width > 0, height > 0, luma.count >= width * height, !setup.languages.isEmpty else {
            return []
        }
        return lock.withLock {
            guard let engine = engine(for: setup, api) else { return [] }
            return luma.withUnsafeBufferPointer { pixels -> [ReadTextLine]? in
                api.setImage(engine, pixels.baseAddress, Int32(width), Int32(height), 1, Int32(width))
                // Camera pictures have no stated resolution; 300 ppi keeps Tesseract from guessing one.
                api.setSourceResolution(engine, 300)
                guard let watch else { return api.recognize(engine, nil) == 0 ? lines(engine, api) : [] }
                // Tesseract's monitor reports the share of words read and asks, word by word, whether to stop; the
                // watch travels with it as the pointer its callbacks get back.
                guard let monitor = api.monitor.create() else { return [] }
                defer { api.monitor.delete(monitor) }
                let context = Unmanaged.passRetained(watch)
                defer { context.release() }
                api.monitor.setCancelThis(monitor, context.toOpaque())
                api.monitor.setCancelFunction(monitor) { this, _ in
                    guard let this else { return false }
                    return Unmanaged<Watch>.fromOpaque(this).takeUnretainedValue().isCancelled()
                }
                api.monitor.setProgressFunction(monitor) { monitor, _, _, _, _ in
                    guard let this = TextReader.library?.monitor.cancelThis(monitor) else { return true }
                    let watch = Unmanaged<Watch>.fromOpaque(this).takeUnretainedValue()
                    watch.report(Double(TextReader.library?.monitor.progress(monitor) ?? 0) / 100)
                    return true
                }
                let finished = api.recognize(engine, monitor) == 0
                guard !watch.isCancelled() else { return nil }
                guard finished else { return [] }
                watch.report(1)
                return lines(engine, api)
            }
        }
    }

    /// What follows one reading: its progress, as fractions that only grow, and whether it was cancelled.
    final class Watch: @unchecked Sendable {
        private let lock = NSLock()
        private var reported = -1.0
        private let progress: (Double) -> Void
        let isCancelled: () -> Bool

        init(progress: @escaping (Double) -> Void, isCancelled: @escaping () -> Bool) {
            (self.progress, self.isCancelled) = (progress, isCancelled)
        }

        /// Passes `fraction` on when it is more than what was passed before.
        func report(_ fraction: Double) {
            let fraction = min(1, max(0, fraction))
            let grows = lock.withLock {
                guard fraction > reported else { return false }
                reported = fraction
                return true
            }
            if grows { progress(fraction) }
        }
    }

    // MARK: The library

    /// Serialises every use of the engines and of the cache below.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var engines: [(setup: Setup, engine: OpaquePointer)] = []
    /// How many setups keep their engine: an app alternating a few (a language, with and without correction) never
    /// waits for a start, and one changing its custom words every frame holds no more than this many models.
    static let keptEngines = 4
    private static let installed: Set<String> = library.map(languages(in:)) ?? []

    /// libtesseract's C functions that the reader calls, resolved once.
    private struct API {
        typealias Handle = OpaquePointer
        let create: @convention(c) () -> Handle?
        let delete: @convention(c) (Handle?) -> Void
        let initialise: @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
        /// `TessBaseAPIInit4`: as `initialise`, with an engine mode, config files and init-time variables.
        let initialiseWithVariables:
            @convention(c) (
                Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32,
                UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                Int, Int32
            ) -> Int32
        let availableLanguages: @convention(c) (Handle?) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let deleteTextArray: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Void
        let setPageSegMode: @convention(c) (Handle?, Int32) -> Void
        let setImage: @convention(c) (Handle?, UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32) -> Void
        let setSourceResolution: @convention(c) (Handle?, Int32) -> Void
        let recognize: @convention(c) (Handle?, OpaquePointer?) -> Int32
        let iterator: @convention(c) (Handle?) -> Handle?
        let deleteIterator: @convention(c) (Handle?) -> Void
        let pageIterator: @convention(c) (Handle?) -> Handle?
        let next: @convention(c) (Handle?, Int32) -> Int32
        let isAtBeginningOf: @convention(c) (Handle?, Int32) -> Int32
        let boundingBox:
            @convention(c) (
                Handle?, Int32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
                UnsafeMutablePointer<Int32>?,
                UnsafeMutablePointer<Int32>?
            ) -> Int32
        let text: @convention(c) (Handle?, Int32) -> UnsafeMutablePointer<CChar>?
        let deleteText: @convention(c) (UnsafePointer<CChar>?) -> Void
        let confidence: @convention(c) (Handle?, Int32) -> Float
        let monitor: MonitorAPI
    }

    /// libtesseract's progress monitor (`ETEXT_DESC`): its functions, and the callbacks it takes.
    struct MonitorAPI {
        typealias Handle = OpaquePointer
        /// `TessCancelFunc`: the monitor's cancel pointer and the words read so far; true stops the reading.
        typealias CancelFunction = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Bool
        /// `TessProgressFunc`: the monitor and the box of the word just read; its return value is not used.
        typealias ProgressFunction = @convention(c) (Handle?, Int32, Int32, Int32, Int32) -> Bool
        let create: @convention(c) () -> Handle?
        let delete: @convention(c) (Handle?) -> Void
        let setCancelFunction: @convention(c) (Handle?, CancelFunction?) -> Void
        let setCancelThis: @convention(c) (Handle?, UnsafeMutableRawPointer?) -> Void
        let cancelThis: @convention(c) (Handle?) -> UnsafeMutableRawPointer?
        let setProgressFunction: @convention(c) (Handle?, ProgressFunction?) -> Void
        /// The share of the page read, 0 to 100.
        let progress: @convention(c) (Handle?) -> Int32
    }

    /// Tesseract's page-iterator levels (`TessPageIteratorLevel`) and the page segmentation used.
    private enum Level {
        static let line: Int32 = 2, word: Int32 = 3, symbol: Int32 = 4
    }
    /// `PSM_SPARSE_TEXT`: as much text as can be found, in no particular order, which is what a camera's picture
    /// holds (a label here, a sign there), rather than a page of columns.
    private static let sparseText: Int32 = 11

    private static let library: API? = {
        guard let handle = dlopen("libtesseract.so.5", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, _: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard let create = symbol("TessBaseAPICreate", (@convention(c) () -> API.Handle?).self),
            let delete = symbol("TessBaseAPIDelete", (@convention(c) (API.Handle?) -> Void).self),
            let initialise = symbol(
                "TessBaseAPIInit3",
                (@convention(c) (API.Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32).self),
            let initialiseWithVariables = symbol(
                "TessBaseAPIInit4",
                (@convention(c) (
                    API.Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32,
                    UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int32,
                    UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                    UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int, Int32
                ) -> Int32).self),
            let availableLanguages = symbol(
                "TessBaseAPIGetAvailableLanguagesAsVector",
                (@convention(c) (API.Handle?) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?).self),
            let deleteTextArray = symbol(
                "TessDeleteTextArray",
                (@convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Void).self),
            let setPageSegMode = symbol(
                "TessBaseAPISetPageSegMode", (@convention(c) (API.Handle?, Int32) -> Void).self),
            let setImage = symbol(
                "TessBaseAPISetImage",
                (@convention(c) (API.Handle?, UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32) -> Void).self),
            let setSourceResolution = symbol(
                "TessBaseAPISetSourceResolution", (@convention(c) (API.Handle?, Int32) -> Void).self),
            let recognize = symbol(
                "TessBaseAPIRecognize", (@convention(c) (API.Handle?, OpaquePointer?) -> Int32).self),
            let iterator = symbol("TessBaseAPIGetIterator", (@convention(c) (API.Handle?) -> API.Handle?).self),
            let deleteIterator = symbol("TessResultIteratorDelete", (@convention(c) (API.Handle?) -> Void).self),
            let pageIterator = symbol(
                "TessResultIteratorGetPageIterator", (@convention(c) (API.Handle?) -> API.Handle?).self),
            let next = symbol("TessPageIteratorNext", (@convention(c) (API.Handle?, Int32) -> Int32).self),
            let isAtBeginningOf = symbol(
                "TessPageIteratorIsAtBeginningOf", (@convention(c) (API.Handle?, Int32) -> Int32).self),
            let boundingBox = symbol(
                "TessPageIteratorBoundingBox",
                (@convention(c) (
                    API.Handle?, Int32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
                    UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?
                ) -> Int32).self),
            let text = symbol(
                "TessResultIteratorGetUTF8Text",
                (@convention(c) (API.Handle?, Int32) -> UnsafeMutablePointer<CChar>?).self),
            let deleteText = symbol("TessDeleteText", (@convention(c) (UnsafePointer<CChar>?) -> Void).self),
            let confidence = symbol(
                "TessResultIteratorConfidence", (@convention(c) (API.Handle?, Int32) -> Float).self),
            let monitorCreate = symbol("TessMonitorCreate", (@convention(c) () -> API.Handle?).self),
            let monitorDelete = symbol("TessMonitorDelete", (@convention(c) (API.Handle?) -> Void).self),
            let setCancelFunction = symbol(
                "TessMonitorSetCancelFunc",
                (@convention(c) (API.Handle?, MonitorAPI.CancelFunction?) -> Void).self),
            let setCancelThis = symbol(
                "TessMonitorSetCancelThis", (@convention(c) (API.Handle?, UnsafeMutableRawPointer?) -> Void).self),
            let cancelThis = symbol(
                "TessMonitorGetCancelThis", (@convention(c) (API.Handle?) -> UnsafeMutableRawPointer?).self),
            let setProgressFunction = symbol(
                "TessMonitorSetProgressFunc",
                (@convention(c) (API.Handle?, MonitorAPI.ProgressFunction?) -> Void).self),
            let progress = symbol("TessMonitorGetProgress", (@convention(c) (API.Handle?) -> Int32).self)
        else { return nil }
        let monitor = MonitorAPI(
            create: monitorCreate, delete: monitorDelete, setCancelFunction: setCancelFunction,
            setCancelThis: setCancelThis, cancelThis: cancelThis, setProgressFunction: setProgressFunction,
            progress: progress)
        return API(
            create: create, delete: delete, initialise: initialise, initialiseWithVariables: initialiseWithVariables,
            availableLanguages: availableLanguages,
            deleteTextArray: deleteTextArray, setPageSegMode: setPageSegMode,
            setImage: setImage, setSourceResolution: setSourceResolution, recognize: recognize, iterator: iterator,
            deleteIterator: deleteIterator, pageIterator: pageIterator, next: next, isAtBeginningOf: isAtBeginningOf,
            boundingBox: boundingBox, text: text, deleteText: deleteText, confidence: confidence, monitor: monitor)
    }()

    /// The languages whose trained data Tesseract finds in its default data folder (the distribution's
    /// `tesseract-ocr-*` packages, or `TESSDATA_PREFIX`).
    private static func languages(in api: API) -> Set<String> {
        guard let engine = api.create() else { return [] }
        defer { api.delete(engine) }
        // The list needs an initialised engine; English is the one every installation has, and a failure to load
        // it leaves the list empty.
        guard api.initialise(engine, nil, "eng") == 0, let list = api.availableLanguages(engine) else { return [] }
        defer { api.deleteTextArray(list) }
        var out: Set<String> = []
        var i = 0
        while let name = list[i] {
            out.insert(String(cString: name))
            i += 1
        }
        return out
    }

    /// The engine for a setup, made and kept on first use; nil where it does not initialise. Called with the lock
    /// held.
    ///
    /// Word lists are loaded when an engine starts, so each setup has its own: without word correction the
    /// languages' system and frequent-word lists stay unloaded (`load_system_dawg`, `load_freq_dawg`), and custom
    /// words are a user word list (`user_words_file`), written to a temporary file for the start.
    private static func engine(for setup: Setup, _ api: API) -> OpaquePointer? {
        if let kept = engines.firstIndex(where: { $0.setup == setup }) {
            let entry = engines.remove(at: kept)
            engines.append(entry)
            return entry.engine
        }
        guard let engine = api.create() else { return nil }
        var variables: [(String, String)] = []
        if !setup.correctsWords { variables += [("load_system_dawg", "0"), ("load_freq_dawg", "0")] }
        let wordsFile = setup.correctsWords && !setup.customWords.isEmpty ? wordList(setup.customWords) : nil
        if let wordsFile { variables.append(("user_words_file", wordsFile.path)) }
        defer { if let wordsFile { try? FileManager.default.removeItem(at: wordsFile) } }
        let names = variables.map { strdup($0.0) }, values = variables.map { strdup($0.1) }
        defer { (names + values).forEach { free($0) } }
        var nameList = names, valueList = values
        // OEM_DEFAULT (3): the LSTM recogniser, the only one the distribution's trained data carries.
        let status = nameList.withUnsafeMutableBufferPointer { n in
            valueList.withUnsafeMutableBufferPointer { v in
                api.initialiseWithVariables(
                    engine, nil, setup.languages.joined(separator: "+"), 3, nil, 0, n.baseAddress, v.baseAddress,
                    variables.count, 0)
            }
        }
        guard status == 0 else {
            api.delete(engine)
            return nil
        }
        api.setPageSegMode(engine, sparseText)
        if engines.count >= keptEngines { api.delete(engines.removeFirst().engine) }
        if !closesAtExit {
            closesAtExit = true
            atexit { TextReader.closeEngines() }
        }
        engines.append((setup, engine))
        return engine
    }

    /// Whether `closeEngines` runs when the program exits.
    nonisolated(unsafe) private static var closesAtExit = false

    /// Closes the kept engines as the program exits, so that Tesseract's cache of trained data is empty when it is
    /// torn down (it reports every model still held as a leak on standard error). An engine in use on another
    /// thread then is left alone: exiting must not wait for it.
    private static func closeEngines() {
        guard let api = library, lock.try() else { return }
        defer { lock.unlock() }
        for entry in engines { api.delete(entry.engine) }
        engines.removeAll()
    }

    /// Custom words as Tesseract's user word list, one a line, in a temporary file for an engine's start; nil where
    /// it cannot be written (the engine then starts without them).
    private static func wordList(_ words: [String]) -> URL? {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-words-\(UUID().uuidString)")
        let text = words.map { $0 + "\n" }.joined()
        return (try? text.write(to: url, atomically: true, encoding: .utf8)) != nil ? url : nil
    }

    /// The recognised lines, walked symbol by symbol so that each character keeps its box.
    private static func lines(_ engine: OpaquePointer, _ api: API) -> [ReadTextLine] {
        guard let results = api.iterator(engine) else { return [] }
        defer { api.deleteIterator(results) }
        guard let page = api.pageIterator(results) else { return [] }
        func box(_ level: Int32) -> PixelBox? {
            var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
            guard api.boundingBox(page, level, &l, &t, &r, &b) != 0 else { return nil }
            return PixelBox(left: Int(l), top: Int(t), right: Int(r), bottom: Int(b))
        }
        func text(_ level: Int32) -> String {
            guard let c = api.text(results, level) else { return "" }
            defer { api.deleteText(c) }
            return String(cString: c)
        }
        var out: [ReadTextLine] = []
        var current: (text: String, confidence: Float, box: PixelBox, boxes: [PixelBox?])?
        func finish() {
            if let line = current, !line.text.isEmpty {
                out.append(
                    ReadTextLine(
                        text: line.text, confidence: line.confidence, box: line.box, characterBoxes: line.boxes))
            }
            current = nil
        }
        repeat {
            if api.isAtBeginningOf(page, Level.line) != 0 {
                finish()
                guard let lineBox = box(Level.line) else { continue }
                current = ("", min(max(api.confidence(results, Level.line) / 100, 0), 1), lineBox, [])
            }
            guard current != nil else { continue }
            if api.isAtBeginningOf(page, Level.word) != 0, !(current?.text.isEmpty ?? true) {
                current?.text.append(" ")
                current?.boxes.append(nil)
            }
            let symbol = text(Level.symbol)
            guard !symbol.isEmpty, let symbolBox = box(Level.symbol) else { continue }
            // A symbol may be more than one character (a ligature); each gets the symbol's box.
            current?.text.append(symbol)
            current?.boxes.append(contentsOf: Array(repeating: symbolBox, count: symbol.count))
        } while api.next(page, Level.symbol) != 0
        finish()
        // Reading order: lines sharing a row left to right, rows top to bottom.
        return out.sorted { a, b in
            let sameRow = a.box.top < b.box.bottom && b.box.top < a.box.bottom
            return sameRow ? a.box.left < b.box.left : a.box.top < b.box.top
        }
    }
}
