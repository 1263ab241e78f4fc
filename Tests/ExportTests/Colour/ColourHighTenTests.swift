import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport
internal import CMedia

/// 10-bit H.264 (High 10) out of an HDR composition: written when the linked libx264 takes
/// `yuv420p10le` (Debian 12's libx264 164 does), refused with a typed error before any file is opened when it
/// does not.
@Suite("Colour: H.264 High 10")
struct ColourHighTenTests {
    /// The H.264 profile the container's stream states (`avcC`'s AVCProfileIndication, as libavformat reads it),
    /// by libavcodec's name (`"High 10"`).
    static func profileName(of url: URL) throws -> String? {
        let input = try InputFile(url: url)
        let index = try #require(input.bestStreamIndex(of: AVMEDIA_TYPE_VIDEO))
        let parameters = try #require(input.stream(at: index).pointee.codecpar)
        return avcodec_profile_name(AV_CODEC_ID_H264, parameters.pointee.profile).map { String(cString: $0) }
    }

    /// HLG in, H.264 with `bitDepth: 10` out. CRF 4, not 0: x264's lossless mode is High 4:4:4 Predictive.
    @Test func hdrExportToH264IsHighTenTaggedHLG() async throws {
        let scratch = try ScratchDirectory("colour-high10")
        defer { scratch.remove() }
        let settings = ExportSettings(
            video: VideoSettings(codec: .h264, rateControl: .constantQuality(4), encoderPreset: "ultrafast", bitDepth: 10),
            audio: nil)
        let session = AssetExportSession(asset: try await ColourExportTests.composition("hdr/hlg.mov"), settings: settings)
        let url = scratch.file("hlg-high10.mp4")
        session.outputURL = url
        guard MediaLibrary.pixelFormats(ofEncoder: "libx264")?.contains("yuv420p10le") ?? true else {
            // An 8-bit-only libx264: the export is refused up front, naming the encoder.
            await #expect {
                try await session.export()
            } throws: { error in
                guard case ExportError.unsupportedSettings(let reason) = error else { return false }
                return reason.contains("libx264") && reason.contains("yuv420p10le")
            }
            #expect(!FileManager.default.fileExists(atPath: url.path))
            return
        }
        try await session.export()
        #expect(try Self.profileName(of: url) == "High 10")
        let picture = try await PlanePicture.read(url)
        #expect(picture.bitDepth == 10 && picture.pixelFormat == "yuv420p10le")
        #expect(picture.primaries == "bt2020" && picture.transfer == "arib-std-b67" && picture.matrix == "bt2020nc")
        // The 75 % patch and the red bar keep their 10-bit code values (source Y 721, red Cr 848).
        #expect(abs(picture.patch(2).y - 721) <= 4, "75 % patch Y \(picture.patch(2).y)")
        #expect(abs(picture.bar(5).cr - 848) <= 4, "red bar Cr \(picture.bar(5).cr)")
        let track = try #require(try await Asset.load(from: url).tracks(withMediaType: .video).first)
        #expect(track.codecName == "h264" && track.video?.color.bitDepth == 10 && track.video?.color.transfer == "arib-std-b67")
    }

    /// The check itself, against an encoder that takes 8-bit pictures only (as an 8-bit libx264 build does).
    @Test func anEightBitOnlyEncoderIsRefusedWithATypedError() throws {
        let eightBitOnly: (String) -> [String]? = { _ in ["yuv420p", "yuvj420p", "yuv422p", "yuv444p", "nv12"] }
        #expect {
            try ExportPlanner.checkEncoder(of: .h264, accepts: "yuv420p10le", pixelFormats: eightBitOnly)
        } throws: { error in
            guard case ExportError.unsupportedSettings(let reason) = error else { return false }
            return reason.contains("libx264") && reason.contains("yuv420p10le") && reason.contains("High 10")
        }
        try ExportPlanner.checkEncoder(of: .h264, accepts: "yuv420p", pixelFormats: eightBitOnly)
        // An encoder that declares no formats is trusted.
        try ExportPlanner.checkEncoder(of: .h264, accepts: "yuv420p10le", pixelFormats: { _ in nil })
        // The linked libx264 states its formats; 8-bit is always among them.
        #expect(MediaLibrary.pixelFormats(ofEncoder: "libx264")?.contains("yuv420p") == true)
        #expect(MediaLibrary.pixelFormats(ofEncoder: "no-such-encoder") == nil)
    }
}
