internal import CMedia
import Testing
import Splice

/// ``ProcessHeap``: with the mmap threshold fixed, large allocations are mappings of their own even after
/// one has been freed (glibc's dynamic threshold would move them into the heap arenas).
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
}
