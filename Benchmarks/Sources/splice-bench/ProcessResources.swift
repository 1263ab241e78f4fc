import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What this process holds at one moment, read from Linux's `/proc/self`: resident memory, open files, threads.
/// What a long-running service watches to see that work leaves nothing behind.
struct ProcessResources: Sendable, Hashable, CustomStringConvertible {
    /// Resident set size in bytes (`VmRSS` in `/proc/self/status`); -1 when it cannot be read.
    var residentBytes: Int
    /// Resident set size in bytes after glibc returned its cached free memory to the system (`malloc_trim(0)`, then
    /// `VmRSS`): what the process still uses; nil until asked for (``trimmedResidentBytes()``).
    var trimmedResidentBytes: Int?
    /// Open file descriptors (entries of `/proc/self/fd`, without the one used to list them).
    var openFiles: Int
    /// Threads (entries of `/proc/self/task`).
    var threads: Int

    /// The figures now.
    static func current() -> ProcessResources {
        ProcessResources(residentBytes: residentBytes(), trimmedResidentBytes: nil, openFiles: entries(of: "/proc/self/fd", excludingItself: true),
                         threads: entries(of: "/proc/self/task", excludingItself: false))
    }

    /// `rss 41.2 MiB, 9 open files, 12 threads`.
    var description: String {
        String(format: "rss %.1f MiB, %d open files, %d threads", Double(residentBytes) / 1_048_576, openFiles, threads)
    }

    /// `VmRSS` after `malloc_trim(0)`, in bytes (see ``trimmedResidentBytes``).
    static func trimmedResidentBytes() -> Int {
        // malloc.h is not in Swift's Glibc module: look the function up.
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }
        return residentBytes()
    }

    /// `VmRSS` (kB in the file) in bytes.
    private static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.dropFirst("VmRSS:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        else { return -1 }
        return kilobytes * 1024
    }

    /// The numeric entries of a `/proc` folder; with `excludingItself`, without the descriptor the listing uses.
    private static func entries(of path: String, excludingItself: Bool) -> Int {
        guard let directory = opendir(path) else { return -1 }
        defer { closedir(directory) }
        let own = excludingItself ? dirfd(directory) : -1
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let number = Int32(name), number != own else { continue }
            count += 1
        }
        return count
    }
}
