import Foundation
import Splice
import Testing

/// `RateControl` and `ExportPreset` have their own `Codable`: a clean form written, older and shorter forms read.
@Suite("Export settings Codable")
struct ExportSettingsCodableTests {
    @Test(arguments: [
        (VideoSettings.RateControl.constantQuality(23), #"{"constantQuality":23}"#),
        (.averageBitRate(2_000_000), #"{"averageBitRate":2000000}"#),
    ])
    func rateControlRoundTrips(rate: VideoSettings.RateControl, json: String) throws {
        #expect(String(decoding: try JSONEncoder().encode(rate), as: UTF8.self) == json)
        #expect(try JSONDecoder().decode(VideoSettings.RateControl.self, from: Data(json.utf8)) == rate)
    }

    @Test func rateControlReadsTheSynthesizedForm() throws {
        let json = #"{"constantQuality": {"_0": 18}}"#
        #expect(try JSONDecoder().decode(VideoSettings.RateControl.self, from: Data(json.utf8)) == .constantQuality(18))
    }

    @Test(arguments: [#"{}"#, #"{"constantQuality": 20, "averageBitRate": 1000}"#, #"{"constantQuality": "high"}"#])
    func rateControlRefuses(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(VideoSettings.RateControl.self, from: Data(json.utf8)) }
    }

    @Test func settingsRoundTrip() throws {
        let settings = ExportSettings(video: VideoSettings(codec: .hevc, rateControl: .averageBitRate(4_000_000)))
        #expect(try JSONDecoder().decode(ExportSettings.self, from: JSONEncoder().encode(settings)) == settings)
    }

    @Test func presetsReadWithOrWithoutThePrefix() throws {
        let presets = try JSONDecoder().decode(
            [ExportPreset].self, from: Data(#"["AVAssetExportPresetHighestQuality", "1280x720", "HEVC1920x1080"]"#.utf8))
        #expect(presets == [.highestQuality, .preset1280x720, .hevc1920x1080])
        #expect(String(decoding: try JSONEncoder().encode([ExportPreset.passthrough]), as: UTF8.self)
            == #"["AVAssetExportPresetPassthrough"]"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ExportPreset].self, from: Data(#"["Best"]"#.utf8)) }
    }
}
