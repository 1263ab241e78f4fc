import Composition
import Dispatch
import SpliceFFmpeg

/// The scanning thread of one ``CaptureMetadataOutput`` stream: takes one gray picture at a time from the session's
/// thread (a picture offered while one is waiting or being scanned is refused and counted as dropped), scans it with
/// a ``CodeScanner`` for the output's current types and rect of interest, and hands the codes found to the stream.
/// The thread starts with the first picture and ends when the stream does (session stopped, consumer gone, replaced
/// by a new stream).
final class MetadataScanner: Sendable {
    /// One picture to scan: packed 8-bit gray rows, oriented as the connection delivers, and its session time.
    struct Picture: Sendable {
        var pixels: [UInt8]
        var width: Int
        var height: Int
        var time: MediaTime
    }

    private struct State {
        var isStarted = false
        var pending: Picture?
        var isScanning = false
        var scannedCount = 0
        var droppedCount = 0
    }

    /// The codes found per picture. Under back-pressure: a slow consumer holds the scanner, never the session.
    let results = SampleQueue<[MachineReadableCodeObject]>(policy: .backPressure(capacity: 8))
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)
    private let stop = CancellationFlag()
    private let settings: @Sendable () -> (types: Set<MetadataObjectType>, rect: Rect)

    /// A scanner reading the output's types and rect of interest through `settings` before each picture.
    init(settings: @escaping @Sendable () -> (types: Set<MetadataObjectType>, rect: Rect)) {
        self.settings = settings
    }

    /// Pictures scanned so far.
    var scannedCount: Int { state.withLock { $0.scannedCount } }
    /// Pictures refused because one was waiting or being scanned.
    var droppedCount: Int { state.withLock { $0.droppedCount } }
    /// True once the stream ended.
    var isFinished: Bool { stop.isCancelled || results.isFinished }
    /// The types to look for now (none: nothing to convert or scan).
    var types: Set<MetadataObjectType> { settings().types }

    /// True when a picture offered now would be scanned; false (and the picture counted as dropped) while the
    /// scanner is busy. Asked before converting, so a busy scanner costs the session's thread nothing.
    func takesPicture() -> Bool {
        state.withLock { state in
            guard state.pending == nil, !state.isScanning else {
                state.droppedCount += 1
                return false
            }
            return true
        }
    }

    /// Hands `picture` to the scanning thread (after ``takesPicture()`` said yes), starting the thread with the first
    /// picture (a stream never fed costs no thread).
    func offer(_ picture: Picture) {
        let start = state.withLock { state -> Bool in
            state.pending = picture
            defer { state.isStarted = true }
            return !state.isStarted
        }
        if start { WorkerThread.start(name: "splice-codes") { [self] in run() } }
        wake.signal()
    }

    /// Ends the stream and the thread: a waiting consumer gets nil.
    func finish() {
        stop.cancel()
        results.finish()
        wake.signal()
    }

    private func run() {
        var scanner: CodeScanner?
        while !isFinished {
            guard wake.wait(timeout: .now() + .milliseconds(100)) == .success else { continue }
            guard let picture = state.withLock({ state -> Picture? in
                defer { state.pending = nil }
                state.isScanning = state.pending != nil
                return state.pending
            }) else { continue }
            let (types, rect) = settings()
            if scanner?.types != types { scanner = try? CodeScanner(types: types) }
            let found = scanner.map { Self.codes(in: picture, rect: rect, scanner: $0) } ?? []
            state.withLock {
                $0.scannedCount += 1
                $0.isScanning = false
            }
            if !found.isEmpty { results.deliver(found, stop: stop) { _, _ in } }
        }
    }

    /// The codes of `picture` inside `rect` (normalised), positions normalised to the picture.
    static func codes(in picture: Picture, rect: Rect, scanner: CodeScanner) -> [MachineReadableCodeObject] {
        picture.pixels.withUnsafeBytes {
            scanner.codes(in: $0, width: picture.width, height: picture.height, bytesPerRow: picture.width, rect: rect,
                          time: picture.time)
        }
    }
}
