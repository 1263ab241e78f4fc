internal import CMedia

/// The C heap's settings for a process whose work is exporting pictures (glibc only): what `splice` makes at start,
/// for a service embedding Splice to make the same way — once, at start, before its threads run. Each is
/// process-wide; Splice's libraries never change them themselves. Benchmarks/README.md measures what each saves.
public enum ProcessHeap {
    /// The size (bytes) from which an allocation gets a mapping of its own: glibc's default starting threshold.
    public static let mmapThreshold: Int32 = 128 * 1024

    /// Fixes glibc's mmap threshold at ``mmapThreshold`` (`mallopt(M_MMAP_THRESHOLD)`), so every allocation of
    /// 128 KiB or more — pictures, sound buffers, filter and decoder pools — is a mapping of its own, given back to
    /// the system when it is freed.
    ///
    /// glibc's threshold is dynamic by default: freeing a mapped chunk raises it to that chunk's size (up to 32 MiB
    /// on 64-bit systems). From then on, picture-sized allocations come from the threads' heap arenas, and what is
    /// freed there stays resident: an export's pools are freed each time a filter graph or a decoder is replaced, so
    /// the arenas grow by a few pictures each time (about 25 MiB at 1080p over a two-clip export). A fixed
    /// threshold keeps peak RSS to what is in use, at the price of a mapping per large allocation, which the pools
    /// make rare.
    ///
    /// The same as `MALLOC_MMAP_THRESHOLD_=131072` in the environment.
    /// - Returns: false when the C library refused the setting (not glibc's allocator in use).
    @discardableResult
    public static func fixMmapThreshold() -> Bool {
        mallopt(M_MMAP_THRESHOLD, mmapThreshold) == 1
    }

    /// The most heap arenas glibc gives this process's threads (``limitArenas()``).
    public static let arenaLimit: Int32 = 2

    /// Limits glibc's heap arenas to ``arenaLimit`` (`mallopt(M_ARENA_MAX)`), shared by all threads.
    ///
    /// glibc gives threads that allocate at once arenas of their own, up to eight per core. Each keeps what its
    /// threads freed resident for reuse by them alone, so an export's threads (render, encoder, the encoder's and
    /// decoders' own, the sound's) hold several partly empty arenas: about 1.3 MiB more at W1's peak than two
    /// shared ones (Benchmarks/README.md). Large allocations are mappings of their own (``fixMmapThreshold()``), so
    /// the arenas serve only small ones, which these threads make rarely: no CPU cost was measured.
    ///
    /// The same as `MALLOC_ARENA_MAX=2` in the environment.
    /// - Returns: false when the C library refused the setting (not glibc's allocator in use).
    @discardableResult
    public static func limitArenas() -> Bool {
        mallopt(M_ARENA_MAX, arenaLimit) == 1
    }

    /// Turns transparent huge pages off for this process (`prctl(PR_SET_THP_DISABLE)`), so anonymous memory is
    /// resident only where it is touched, a 4 KiB page at a time.
    ///
    /// libx264 asks for huge pages (`madvise(MADV_HUGEPAGE)`) on each of its buffers of about 2 MiB or more — its
    /// lookahead's and frame threads' pictures — rounded up to whole 2 MiB pages, and a huge page is resident as a
    /// whole as soon as one byte of it is touched. At 1080p with preset medium (56 such pictures) that is about 20 MiB of
    /// resident memory no encoder stage uses; the encoder's output is the same either way.
    ///
    /// Inherited by child processes and kept across `exec`.
    /// - Returns: false when the kernel refused the setting (Linux before 3.15).
    @discardableResult
    public static func disableTransparentHugePages() -> Bool {
        cmedia_prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0
    }
}
