import Foundation
internal import CMedia

extension MediaLibrary {
    /// The environment variable that restricts FFmpeg's SIMD code paths for the whole process: FFmpeg's CPU-flag
    /// syntax (`0` for the portable C code only, `sse2`, `+avx2`, …), as the `ffmpeg` CLI's `-cpuflags` takes it.
    ///
    /// It exists to reproduce on one machine what another CPU computes (`SPLICE_FFMPEG_CPU_FLAGS=0 swift test`):
    /// FFmpeg's DSP code (decoders, filters, libswscale) picks its SIMD path from these flags. libzimg and libx264
    /// detect the CPU themselves and are not affected. Read once, before FFmpeg's first use.
    package static let cpuFlagsVariable = "SPLICE_FFMPEG_CPU_FLAGS"

    /// Applies ``cpuFlagsVariable`` when it is set (wraps `av_parse_cpu_caps` and `av_force_cpu_flags`); a value
    /// FFmpeg cannot parse is reported on standard error once and ignored, so a typo cannot change results silently.
    static func applyCPUFlagsOverride() {
        guard let value = ProcessInfo.processInfo.environment[cpuFlagsVariable] else { return }
        var flags: UInt32 = 0
        guard av_parse_cpu_caps(&flags, value) >= 0 else {
            FileHandle.standardError.write(Data("splice: \(cpuFlagsVariable)=\(value) is not a CPU-flag list FFmpeg knows; ignored\n".utf8))
            return
        }
        av_force_cpu_flags(Int32(bitPattern: flags))
    }
}
