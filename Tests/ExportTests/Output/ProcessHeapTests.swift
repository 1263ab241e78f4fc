internal import CMedia
import Testing
import Splice

/// ``ProcessHeap``: with the mmap threshold fixed, picture-sized allocations are mappings of their own even after
/// one has been freed (glibc's dynamic threshold would move them into the heap arenas).
@Suite("Process heap")
struct ProcessHeapTests {
    /// Whether glibc serves `pointer` from a mapping of its own: the `IS_MMAPPED` bit (0x2) of its chunk's size
    /// word, the machine word before the pointer (glibc's `malloc_chunk` layout).
    static func isMapped(_ pointer: UnsafeMutableRawPointer) -> Bool {
        (pointer - MemoryLayout<UInt>.size).load(as: UInt.self) & 0x2 != 0
    }

    @Test func pictureSizedAllocationsStayMappingsAfterOneIsFreed() throws {
        #expect(ProcessHeap.fixMmapThreshold())
        let picture = 1920 * 1080 * 3 / 2  // a 1080p 4:2:0 picture, 3 110 400 bytes
        let first = try #require(malloc(picture))
        #expect(Self.isMapped(first))
        // Freeing a mapped chunk is what raises glibc's default (dynamic) threshold to the chunk's size.
        free(first)
        let second = try #require(malloc(picture))
        defer { free(second) }
        #expect(Self.isMapped(second))
        // Below the threshold, the arenas still serve (100 KiB < 128 KiB).
        let small = try #require(malloc(100 * 1024))
        defer { free(small) }
        #expect(!Self.isMapped(small))
    }
}
