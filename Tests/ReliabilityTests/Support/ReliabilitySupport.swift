import Foundation
import SpliceFFmpeg
import Splice
import SpliceTestSupport

extension Fixture {
    /// The first `seconds` of every track of a fixture, as a composition.
    static func composition(_ path: String, seconds: Int64) async throws -> MutableComposition {
        let asset = try await asset(path)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: seconds)), of: asset, at: .zero)
        return composition
    }
}

/// Settings that keep reliability exports cheap: H.264 ultrafast, AAC.
enum FastSettings {
    static func make(maximumSize: Size? = nil) -> ExportSettings {
        ExportSettings(video: VideoSettings(encoderPreset: "ultrafast", maximumSize: maximumSize), audio: AudioSettings())
    }
}

/// Names an error by its type and case, and says whether it is one of Splice's public, typed errors.
enum ErrorKind {
    /// The public error types a caller can switch over.
    static func isTyped(_ error: any Error) -> Bool {
        error is AssetLoadingError || error is ExportError || error is CompositionError || error is CancellationError
            || error is VideoCompositionError || error is AudioMixError || error is DecodingError
    }

    /// `"AssetLoadingError.corruptOrTruncated"`, `"ExportError.writeFailed"`, …; the bare type name for others.
    static func name(_ error: any Error) -> String {
        let type = String(describing: Swift.type(of: error))
        if let label = Mirror(reflecting: error).children.first?.label { return "\(type).\(label)" }
        return type
    }
}

/// The end of an operation run under ``withTimeout(seconds:_:)``.
enum Timed<Value: Sendable>: Sendable {
    case value(Value)
    case error(any Error)
    case timedOut
}

/// Runs `body` in its own task and waits at most `seconds` for it. On timeout the task is cancelled and left to
/// finish on its own (a hang is reported, not waited for).
func withTimeout<Value: Sendable>(
    seconds: Double, _ body: @escaping @Sendable () async throws -> Value
) async -> Timed<Value> {
    let gate = TimeoutGate<Value>()
    return await withCheckedContinuation { continuation in
        gate.continuation.withLock { $0 = continuation }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            return Task.isCancelled
        }
        let work = Task {
            let result: Timed<Value>
            do { result = .value(try await body()) } catch { result = .error(error) }
            timer.cancel()
            _ = gate.resume(result)
        }
        Task {
            let cancelled = await timer.value
            if !cancelled, gate.resume(.timedOut) { work.cancel() }
        }
    }
}

/// Hands the first of "finished" and "timed out" to the waiting continuation.
private final class TimeoutGate<Value: Sendable>: Sendable {
    let continuation = Locked<CheckedContinuation<Timed<Value>, Never>?>(nil)

    func resume(_ result: Timed<Value>) -> Bool {
        guard let continuation = continuation.withLock({ $0.take() }) else { return false }
        continuation.resume(returning: result)
        return true
    }
}

/// Process-wide facts from `/proc/self` (Linux).
enum ProcessStats {
    /// Resident set size in bytes (`/proc/self/statm`, second field × page size).
    static var residentBytes: Int {
        guard let text = try? TextFile.read(URL(fileURLWithPath: "/proc/self/statm")) else { return -1 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    /// Resident set size in bytes after glibc has returned its free memory to the system (`malloc_trim(0)`): what
    /// the process still uses, without the pages malloc keeps cached in its per-thread arenas.
    static var trimmedResidentBytes: Int {
        // malloc.h is not in Swift's Glibc module: look the function up.
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }
        return residentBytes
    }

    /// The open file descriptors and what each points to (`/proc/self/fd`), without the one used to list them.
    static var openDescriptors: [Int32: String] {
        guard let directory = opendir("/proc/self/fd") else { return [:] }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var result: [Int32: String] = [:]
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let fd = Int32(name), fd != own else { continue }
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink("/proc/self/fd/\(name)", &buffer, buffer.count - 1)
            result[fd] = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        }
        return result
    }

    /// How many descriptors are open.
    static var openDescriptorCount: Int { openDescriptors.count }

    /// The descriptors whose target lies under `path` (e.g. a test's scratch directory).
    static func descriptors(under path: String) -> [String] {
        openDescriptors.values.filter { $0.hasPrefix(path) }.sorted()
    }

    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
}

/// Runs CPU-bound test work on a thread of its own and waits for it, so that it never occupies Swift's cooperative
/// pool (two threads on a two-core machine): other tests' tasks — progress streams, cancellation timers — keep
/// running while it works. `body` must not record issues (it runs outside the test's task); return them instead.
func onWorkerThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 16 << 20
        thread.start()
    }
}
