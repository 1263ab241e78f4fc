internal import CMedia
import Foundation
import Testing
import Splice
import SpliceTestSupport

/// ``ProcessHeap``: with the mmap threshold fixed, large allocations are mappings of their own even after
/// one has been freed (glibc's dynamic threshold would move them into the heap arenas); with transparent huge pages
/// off, memory that asks for huge pages is resident only where it is touched.
@Suite("Process heap")
struct ProcessHeapTests {
    /// Whether glibc serves `pointer` from a mapping of its own: the `IS_MMAPPED` bit (0x2) of its chunk's size
    /// word, the machine word before the pointer (glibc's `malloc_chunk` layout).
    static func isMapped(_ pointer: UnsafeMutableRawPointer) -> Bool {
        (pointer - MemoryLayout<UInt>.size).load(as: UInt.self) & 0x2 != 0
    }

    @Test func largeAllocationsStayMappingsAfterOneIsFreed() throws {
        #expect(ProcessHeap.fixMmapThreshold())
        // 24 MiB: above the fixed threshold, below the 32 MiB that glibc's dynamic threshold can rise to, and larger
        // than any free chunk the arenas plausibly hold here (a smaller size may be served from a free chunk left
        // by earlier tests, whatever the threshold).
        let size = 24 << 20
        let first = try #require(malloc(size))
        #expect(Self.isMapped(first))
        // Freeing a mapped chunk is what raises glibc's default (dynamic) threshold to the chunk's size.
        free(first)
        let second = try #require(malloc(size))
        defer { free(second) }
        #expect(Self.isMapped(second))
    }

    /// The setting is process-wide, so it is made in a child process of its own: there, 8 MiB marked for huge pages
    /// the way libx264 marks its pictures (`madvise(MADV_HUGEPAGE)`), with one byte written in each 2 MiB, must be
    /// resident by those four pages only (16 KiB), not by four huge pages (8 MiB).
    @Test func hugePageRequestsAreResidentOnlyWhereTouched() throws {
        let result = try ChildTest.run(filter: "ProcessHeapTests/hugePagesChild", role: "huge-pages", timeout: 120)
        let reports = result.reports
        #expect(result.status == 0 && !result.timedOut, "child: \(result.output.suffix(2000))")
        #expect(reports["disabled"] == "true")
        #expect(reports["THP_enabled"] == "0")
        #expect(reports["resident pages"] == "4")
    }

    @Test(.enabled(if: ChildTest.is("huge-pages")))
    func hugePagesChild() throws {
        ChildTest.report("disabled", "\(ProcessHeap.disableTransparentHugePages())")
        let status = try TextFile.read(URL(fileURLWithPath: "/proc/self/status"))
        let enabled = status.split(separator: "\n").first { $0.hasPrefix("THP_enabled:") }
        ChildTest.report("THP_enabled", enabled.map { $0.split(separator: "\t").last.map(String.init) ?? "" } ?? "missing")

        // 8 MiB on a 2 MiB boundary (a huge page's size and alignment) inside a 10 MiB anonymous mapping.
        let hugePage = 2 << 20, length = 4 * hugePage
        let mapping = mmap(nil, length + hugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        try #require(mapping != MAP_FAILED)
        let mapped = try #require(mapping)
        defer { munmap(mapped, length + hugePage) }
        let start = (Int(bitPattern: mapped) + hugePage - 1) / hugePage * hugePage
        let region = try #require(UnsafeMutableRawPointer(bitPattern: start))
        #expect(madvise(region, length, MADV_HUGEPAGE) == 0)
        for offset in stride(from: 0, to: length, by: hugePage) { region.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }

        // Pages of the region in memory (`mincore`): only the four touched ones, where a huge page would bring in 512.
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        var pages = [UInt8](repeating: 0, count: length / pageSize)
        #expect(mincore(region, length, &pages) == 0)
        ChildTest.report("resident pages", "\(pages.filter { $0 & 1 != 0 }.count)")
    }

    /// With the arenas limited, eight threads allocating at once make no arena beyond the two (glibc's `malloc_info`
    /// lists each arena as a `<heap>`); without the limit, new threads get arenas of their own. Each in a child
    /// process of its own, the setting being process-wide.
    @Test func threadsShareTheLimitedArenas() throws {
        var counts: [String: (before: Int, after: Int)] = [:]
        for role in ["arenas-limited", "arenas-default"] {
            let result = try ChildTest.run(filter: "ProcessHeapTests/arenasChild", role: role, timeout: 120)
            #expect(result.status == 0 && !result.timedOut, "child: \(result.output.suffix(2000))")
            let before = try #require(result.reports["before"].flatMap { Int($0) })
            let after = try #require(result.reports["after"].flatMap { Int($0) })
            counts[role] = (before, after)
            if role == "arenas-limited" { #expect(result.reports["limited"] == "true") }
        }
        let limited = try #require(counts["arenas-limited"]), unlimited = try #require(counts["arenas-default"])
        #expect(limited.after <= max(limited.before, Int(ProcessHeap.arenaLimit)), "\(limited)")
        #expect(unlimited.after >= unlimited.before + 2, "\(unlimited)")
    }

    @Test(.enabled(if: ChildTest.is("arenas-limited") || ChildTest.is("arenas-default")))
    func arenasChild() throws {
        if ChildTest.is("arenas-limited") { ChildTest.report("limited", "\(ProcessHeap.limitArenas())") }
        ChildTest.report("before", "\(Self.arenaCount())")
        let threads = 8
        let started = DispatchGroup(), release = DispatchSemaphore(value: 0), finished = DispatchGroup()
        for _ in 0..<threads {
            started.enter()
            finished.enter()
            Thread.detachNewThread {
                // Every thread holds a small block until all have one: they allocate at the same time.
                let block = malloc(64)
                started.leave()
                release.wait()
                free(block)
                finished.leave()
            }
        }
        started.wait()
        ChildTest.report("after", "\(Self.arenaCount())")
        for _ in 0..<threads { release.signal() }
        finished.wait()
    }

    /// The heap arenas glibc has made in this process: the `<heap nr=` elements of `malloc_info`.
    static func arenaCount() -> Int {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return -1 }
        malloc_info(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard let buffer else { return -1 }
        return String(cString: buffer).components(separatedBy: "<heap nr=").count - 1
    }
}
