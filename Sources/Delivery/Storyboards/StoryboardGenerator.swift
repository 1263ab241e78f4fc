import Composition
import Export
import Foundation
import VideoComposition

/// Makes the pictures a player shows before and while scrubbing: a poster frame, and storyboards — sprite sheets of
/// thumbnails with the WebVTT thumbnail track players read (`sheet.jpg#xywh=x,y,w,h`, the Media Fragments URI
/// spatial syntax).
///
/// Pictures come from ``Export/AssetImageGenerator`` with zero tolerances, so thumbnail `i` is exactly the picture the
/// export shows at `i × interval` (the composition and video composition as exported); they are packed by
/// libavfilter's `tile` filter and encoded by libavcodec's `mjpeg`.
///
/// ```swift
/// let storyboard = try await StoryboardGenerator(asset: composition,
///     settings: StoryboardSettings(interval: MediaTime(value: 5, timescale: 1), columns: 5, rows: 5, tileWidth: 160))
///     .write(to: folder, name: "storyboard")        // storyboard-0.jpg, …, storyboard.vtt
/// ```
public struct StoryboardGenerator: Sendable {
    /// The composition.
    public var asset: MutableComposition
    /// How pictures are composed; nil uses `MutableVideoComposition(propertiesOf:)` (upright, aspect-fit).
    public var videoComposition: MutableVideoComposition?
    /// The cut of the storyboard.
    public var settings: StoryboardSettings
    /// Replace files already there; false by default (an existing file is refused before anything is rendered).
    public var overwritesExistingFiles = false

    /// A generator for `asset` with `settings`.
    public init(asset: MutableComposition, settings: StoryboardSettings = StoryboardSettings()) {
        self.asset = asset
        self.settings = settings
    }

    /// The thumbnail times: `0, interval, 2 × interval, …` before the composition's duration, each with its cue's
    /// range (to the next thumbnail; the last to the duration).
    public func tileTimeRanges() throws(StoryboardError) -> [TimeRange] {
        try settings.validate()
        let duration = asset.duration
        guard !asset.tracks(withMediaType: .video).isEmpty, duration.isNumeric, duration > .zero else { throw .noVideo }
        var ranges: [TimeRange] = []
        var index: Int64 = 0
        while true {
            let start = settings.interval * index
            guard start < duration else { break }
            let next = settings.interval * (index + 1)
            ranges.append(TimeRange(start: start, end: next < duration ? next : duration))
            index += 1
        }
        return ranges
    }

    /// Renders the storyboard into `directory`: sheets `NAME-0.jpg`, `NAME-1.jpg`, … and `NAME.vtt`. Each file is
    /// written beside its place under a hidden temporary name and moved into place only when every sheet is done
    /// (the WebVTT last), so a failure or cancellation leaves none of them behind.
    ///
    /// - Parameters:
    ///   - directory: an existing folder.
    ///   - name: the files' base name; `storyboard` by default. A file name, not a path: no `/`, not empty, `.` or
    ///     `..` (the files stay inside `directory`).
    /// - Returns: the files and every tile's time and place.
    /// - Throws: ``StoryboardError`` (invalid settings or name, no video, an existing file, a write failure) before or
    ///   while writing; the ``Export/ExportError`` of the image generator; `CancellationError`.
    public func write(to directory: URL, name: String = "storyboard") async throws -> Storyboard {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw StoryboardError.invalidSettings("the name '\(name)' is not a file name (no '/', not empty, '.' or '..'): the files go into the folder given")
        }
        let ranges = try tileTimeRanges()
        let perSheet = settings.columns * settings.rows
        let sheetCount = (ranges.count + perSheet - 1) / perSheet
        let sheetURLs = (0..<sheetCount).map { directory.appendingPathComponent("\(name)-\($0).jpg") }
        let vttURL = directory.appendingPathComponent("\(name).vtt")
        if !overwritesExistingFiles {
            for url in sheetURLs + [vttURL] where FileManager.default.fileExists(atPath: url.path) {
                throw StoryboardError.outputFileExists(url)
            }
        }
        var pending = PendingFiles()
        defer { pending.removeAll() }

        var generator = AssetImageGenerator(asset: asset)
        generator.videoComposition = videoComposition
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        var renderer: ThumbnailSheetRenderer?
        var written = 0
        for try await (_, image, _) in generator.images(for: ranges.map(\.start)) {
            try Task.checkCancellation()
            if renderer == nil {
                guard settings.tileWidth <= image.width else {
                    throw StoryboardError.invalidSettings("tileWidth \(settings.tileWidth) is wider than the \(image.width)-pixel picture")
                }
                let height = max(2, Int((Double(settings.tileWidth) * Double(image.height) / Double(image.width) / 2).rounded()) * 2)
                renderer = try ThumbnailSheetRenderer(
                    pictureWidth: image.width, pictureHeight: image.height, tileWidth: settings.tileWidth,
                    tileHeight: height, columns: settings.columns, rows: settings.rows)
            }
            for sheet in try renderer!.add(image) {
                try pending.write(sheet, to: sheetURLs[written])
                written += 1
            }
        }
        guard let renderer else { throw StoryboardError.noVideo }
        for sheet in try renderer.finish() {
            try pending.write(sheet, to: sheetURLs[written])
            written += 1
        }

        let tiles = ranges.enumerated().map { index, range in
            let place = index % perSheet
            return Storyboard.Tile(timeRange: range, sheet: index / perSheet, x: (place % settings.columns) * renderer.tileWidth,
                                   y: (place / settings.columns) * renderer.tileHeight)
        }
        let storyboard = Storyboard(sheets: sheetURLs, webVTT: vttURL,
                                    tileSize: Size(width: renderer.tileWidth, height: renderer.tileHeight), tiles: tiles)
        try pending.write(Data(Self.webVTT(for: storyboard).utf8), to: vttURL)
        try pending.moveIntoPlace()
        return storyboard
    }

    /// The WebVTT thumbnail track of `storyboard`: one cue per tile, `HH:MM:SS.mmm --> HH:MM:SS.mmm` (times rounded
    /// to the millisecond, WebVTT's resolution) and the sheet's file name with `#xywh=x,y,w,h` in pixels.
    public static func webVTT(for storyboard: Storyboard) -> String {
        var text = "WEBVTT\n"
        for tile in storyboard.tiles {
            text += "\n\(timestamp(tile.timeRange.start)) --> \(timestamp(tile.timeRange.end))\n"
            text += "\(storyboard.sheets[tile.sheet].lastPathComponent)#xywh=\(tile.x),\(tile.y),"
                + "\(storyboard.tileSize.width),\(storyboard.tileSize.height)\n"
        }
        return text
    }

    /// A WebVTT timestamp, `HH:MM:SS.mmm` (hours at least two digits), of an exact non-negative time rounded to the
    /// nearest millisecond (half a millisecond rounds up).
    public static func timestamp(_ time: MediaTime) -> String {
        let scaled = Int128(time.value) * 1000, timescale = Int128(time.timescale)
        let milliseconds = Int((scaled + timescale / 2) / timescale)
        let hours = milliseconds / 3_600_000, minutes = milliseconds / 60_000 % 60
        let seconds = milliseconds / 1000 % 60, rest = milliseconds % 1000
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(hours)):\(two(minutes)):\(two(seconds))." + String(repeating: "0", count: rest < 10 ? 2 : rest < 100 ? 1 : 0) + "\(rest)"
    }

    /// Writes the picture at `time` to `url` as a poster frame: JPEG (`.jpg`, `.jpeg`; libavcodec's `mjpeg`) or PNG
    /// (`.png`), scaled down to fit `maximumSize` pixels as ``Export/AssetImageGenerator/maximumSize`` does
    /// (aspect kept, the box turned to the picture's orientation; nil: the render size). The exact picture of that
    /// time, as ``Export/AssetImageGenerator`` renders it with zero tolerances; written atomically.
    /// - Throws: ``StoryboardError/unsupportedImageType(_:)``, ``StoryboardError/outputFileExists(_:)`` (unless
    ///   ``overwritesExistingFiles``), ``StoryboardError/writeFailed(_:reason:)``; the image generator's
    ///   ``Export/ExportError`` (e.g. a time outside the composition); `CancellationError`.
    public func writePoster(at time: MediaTime, to url: URL, maximumSize: Size? = nil) async throws {
        let type = url.pathExtension.lowercased()
        guard ["jpg", "jpeg", "png"].contains(type) else { throw StoryboardError.unsupportedImageType(url) }
        if !overwritesExistingFiles, FileManager.default.fileExists(atPath: url.path) { throw StoryboardError.outputFileExists(url) }
        guard !asset.tracks(withMediaType: .video).isEmpty else { throw StoryboardError.noVideo }
        var generator = AssetImageGenerator(asset: asset)
        generator.videoComposition = videoComposition
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        generator.maximumSize = maximumSize
        let (image, _) = try await generator.image(at: time)
        let data: Data
        if type == "png" {
            data = try image.pngData()
        } else {
            let width = image.width - image.width % 2, height = image.height - image.height % 2
            let renderer = try ThumbnailSheetRenderer(pictureWidth: image.width, pictureHeight: image.height,
                                                      tileWidth: width, tileHeight: height, columns: 1, rows: 1)
            data = try (renderer.add(image) + renderer.finish())[0]
        }
        var pending = PendingFiles()
        defer { pending.removeAll() }
        try pending.write(data, to: url)
        try pending.moveIntoPlace()
    }
}

/// Files written under hidden temporary names beside their places, moved into place together.
struct PendingFiles {
    private var files: [(temporary: URL, final: URL)] = []

    mutating func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw StoryboardError.writeFailed(url, reason: error.localizedDescription)
        }
        files.append((temporary, url))
    }

    /// Renames every file into place, in the order written (`rename(2)`: an existing file is replaced at once).
    mutating func moveIntoPlace() throws {
        for (temporary, final) in files {
            guard rename(temporary.path, final.path) == 0 else {
                throw StoryboardError.writeFailed(final, reason: String(cString: strerror(errno)))
            }
        }
        files = []
    }

    /// Removes what was not moved into place.
    mutating func removeAll() {
        for (temporary, _) in files { try? FileManager.default.removeItem(at: temporary) }
        files = []
    }
}
