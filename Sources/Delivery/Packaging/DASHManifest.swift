import AssetIO
import Composition
import Foundation

/// A static MPEG-DASH manifest (ISO/IEC 23009-1, the `isoff-live` profile) over the same CMAF segments as the HLS
/// playlists: one video `AdaptationSet` with a `Representation` per rendition, one audio `AdaptationSet`, each
/// `Representation` with a `SegmentTemplate` (`$RepresentationID$/init.mp4`, `$RepresentationID$/segment$Number$.m4s`
/// from 0) and a `SegmentTimeline` of its segments' exact durations in the track's own time scale (each segment's
/// start rounded on the running total, so the timeline never drifts; equal neighbours merged with `@r`).
///
/// `@bandwidth` is the representation's peak segment bit rate, `@codecs` RFC 6381's, `segmentAlignment` and
/// `startWithSAP="1"` hold because every segment of every rendition starts with an IDR picture at the same time.
/// Each subtitle rendition is a text `AdaptationSet` (`mimeType="text/vtt"`, `lang` as RFC 5646 tags it, the
/// `subtitle` or `forced-subtitle` role) with one `Representation` whose `BaseURL` is its whole-programme WebVTT file.
public struct DASHManifest: Sendable, Hashable {
    /// The package the manifest describes.
    public var package: AdaptiveBitratePackage

    /// The manifest of `package`.
    public init(package: AdaptiveBitratePackage) {
        self.package = package
    }

    /// An ISO 8601 duration with milliseconds, as `@mediaPresentationDuration` takes it: `PT6.000S`.
    static func duration(_ time: MediaTime) -> String {
        "PT\(MediaTime.formatSeconds(time))S"
    }

    /// `(t, d, r)` runs of `durations` in units of `timescale`: each start rounded from the exact running total.
    static func timeline(_ durations: [MediaTime], timescale: Int32) -> [(start: Int64, duration: Int64, repeats: Int)] {
        var runs: [(start: Int64, duration: Int64, repeats: Int)] = []
        var total = MediaTime.zero, start: Int64 = 0
        for duration in durations {
            total = total + duration
            let end = total.convertScale(timescale).value
            let ticks = end - start
            if let last = runs.last, last.duration == ticks {
                runs[runs.count - 1].repeats += 1
            } else {
                runs.append((start, ticks, 0))
            }
            start = end
        }
        return runs
    }

    private func representation(_ rendition: AdaptiveBitratePackage.Rendition, indent: String) -> [String] {
        var attributes = "id=\"\(rendition.name)\" codecs=\"\(rendition.codecs)\" bandwidth=\"\(rendition.peakBitRate)\""
        if let size = rendition.size { attributes += " width=\"\(size.width)\" height=\"\(size.height)\" sar=\"1:1\"" }
        if rendition.size == nil { attributes += " audioSamplingRate=\"\(rendition.timescale)\"" }
        var lines = ["\(indent)<Representation \(attributes)>"]
        if let channels = rendition.channelCount {
            lines.append("\(indent)  <AudioChannelConfiguration schemeIdUri=\"urn:mpeg:dash:23003:3:audio_channel_configuration:2011\" value=\"\(channels)\"/>")
        }
        lines.append("\(indent)  <SegmentTemplate timescale=\"\(rendition.timescale)\" initialization=\"$RepresentationID$/init.mp4\" "
            + "media=\"$RepresentationID$/segment$Number$.m4s\" startNumber=\"0\">")
        lines.append("\(indent)    <SegmentTimeline>")
        for run in Self.timeline(rendition.segmentDurations, timescale: rendition.timescale) {
            lines.append("\(indent)      <S t=\"\(run.start)\" d=\"\(run.duration)\"" + (run.repeats > 0 ? " r=\"\(run.repeats)\"" : "") + "/>")
        }
        lines.append("\(indent)    </SegmentTimeline>")
        lines.append("\(indent)  </SegmentTemplate>")
        lines.append("\(indent)</Representation>")
        return lines
    }

    /// The manifest's text (UTF-8 XML).
    public var text: String {
        let longest = (package.videoRenditions + (package.audioRendition.map { [$0] } ?? []))
            .flatMap(\.segmentDurations).max() ?? package.duration
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                     "<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" profiles=\"urn:mpeg:dash:profile:isoff-live:2011\" "
                        + "type=\"static\" mediaPresentationDuration=\"\(Self.duration(package.duration))\" "
                        + "minBufferTime=\"\(Self.duration(longest))\">",
                     "  <Period id=\"0\" start=\"PT0.000S\">"]
        let frameRate = "\(package.frameDuration.timescale)/\(package.frameDuration.value)"
        let widest = package.videoRenditions.compactMap(\.size)
        lines.append("    <AdaptationSet id=\"0\" contentType=\"video\" mimeType=\"video/mp4\" segmentAlignment=\"true\" "
            + "startWithSAP=\"1\" frameRate=\"\(frameRate)\" maxWidth=\"\(widest.map(\.width).max() ?? 0)\" "
            + "maxHeight=\"\(widest.map(\.height).max() ?? 0)\">")
        for video in package.videoRenditions { lines += representation(video, indent: "      ") }
        lines.append("    </AdaptationSet>")
        if let audio = package.audioRendition {
            lines.append("    <AdaptationSet id=\"1\" contentType=\"audio\" mimeType=\"audio/mp4\" segmentAlignment=\"true\" startWithSAP=\"1\">")
            lines += representation(audio, indent: "      ")
            lines.append("    </AdaptationSet>")
        }
        for (index, subtitles) in package.subtitleRenditions.enumerated() {
            let language = subtitles.languageTag.map { " lang=\"\($0)\"" } ?? ""
            lines.append("    <AdaptationSet id=\"\(2 + index)\" contentType=\"text\" mimeType=\"text/vtt\"\(language)>")
            lines.append("      <Role schemeIdUri=\"urn:mpeg:dash:role:2011\" value=\"\(subtitles.isForced ? "forced-subtitle" : "subtitle")\"/>")
            lines.append("      <Representation id=\"\(subtitles.name)\" bandwidth=\"\(subtitles.bitRate)\">")
            lines.append("        <BaseURL>\(subtitles.name)/\(AdaptiveBitratePackage.SubtitleRendition.wholeProgrammeFileName)</BaseURL>")
            lines.append("      </Representation>")
            lines.append("    </AdaptationSet>")
        }
        lines += ["  </Period>", "</MPD>"]
        return lines.joined(separator: "\n") + "\n"
    }
}
