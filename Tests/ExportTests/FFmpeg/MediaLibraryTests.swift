import SpliceFFmpeg
import Testing
import Composition
@testable import Export
internal import CMedia

@Suite("FFmpeg bridge")
struct MediaLibraryTests {
    @Test func linkedVersionsAreReported() {
        let names = MediaLibrary.versions.map(\.name)
        #expect(names == ["libavformat", "libavcodec", "libavfilter", "libavutil", "libswscale", "libswresample"])
        for component in MediaLibrary.versions {
            let major = Int(component.runtimeVersion.split(separator: ".")[0]) ?? 0
            #expect(major > 0, "\(component.name) \(component.runtimeVersion)")
            if let compiled = component.compiledVersion {
                // Same major at run time as at compile time, or the ABI differs.
                #expect(compiled.split(separator: ".")[0] == component.runtimeVersion.split(separator: ".")[0])
            }
        }
        #expect(MediaLibrary.license.contains("GPL"))
    }

    @Test func shimConstantsHaveFFmpegsValues() {
        // Values fixed by FFmpeg's ABI: FFERRTAG('E','O','F',' ') and friends, AVERROR(e) == -e.
        #expect(cmedia_AVERROR_EOF() == -0x2046_4f45)
        #expect(cmedia_AVERROR_EAGAIN() == -11)
        #expect(cmedia_AVERROR(22) == -22)
        #expect(cmedia_AVERROR_INVALIDDATA() == -0x4144_4E49)
        #expect(cmedia_AV_NOPTS_VALUE() == Int64.min)
        #expect(cmedia_AV_TIME_BASE_Q().num == 1 && cmedia_AV_TIME_BASE_Q().den == 1_000_000)
        #expect(cmedia_AV_CHANNEL_LAYOUT_STEREO().nb_channels == 2)
        #expect(FFmpegError.endOfFile.description == "End of file")
    }

    @Test func ffmpegTimestampsConvertExactly() {
        let tb = AVRational(num: 1, den: 90000)
        let t = MediaTime(pts: 3003, timeBase: tb)
        #expect(t == MediaTime(value: 1001, timescale: 30000))
        #expect(MediaTime(pts: cmedia_AV_NOPTS_VALUE(), timeBase: tb) == nil)
        #expect(MediaTime(pts: Int64.max, timeBase: AVRational(num: 2, den: 1)) == nil)
        #expect(MediaTime(value: 1001, timescale: 30000).timestamp(in: tb) == 3003)
        #expect(MediaTime(value: 1, timescale: 3).timestamp(in: AVRational(num: 1, den: 1000)) == 333)
        #expect(MediaTime(value: 1, timescale: 1).timestamp(in: AVRational(num: 1001, den: 30000)) == 30)
    }
}
