import Export
import Foundation
import SpliceFFmpeg
internal import CMedia

/// Packs pictures into JPEG sprite sheets: each RGBA picture scaled to the tile size (`scale`, bicubic), laid out
/// by libavfilter's `tile` filter (`columns`×`rows`, left to right then top to bottom; a last, partly filled sheet
/// comes out at the end with its unused places black) and encoded by libavcodec's `mjpeg` encoder (baseline JFIF,
/// 4:2:0, BT.601 full range). Owns its filter graph; lives on one task.
final class ThumbnailSheetRenderer {
    let tileWidth: Int
    let tileHeight: Int
    let columns: Int
    let rows: Int
    private let graph: FilterGraph
    private let pictureWidth: Int
    private let pictureHeight: Int
    private var pushed: Int64 = 0
    private let sheet: Frame

    /// A renderer for pictures of `pictureWidth` × `pictureHeight` pixels into `tileWidth` × `tileHeight` tiles
    /// (or, with `columns` = `rows` = 1, single pictures: a poster).
    init(pictureWidth: Int, pictureHeight: Int, tileWidth: Int, tileHeight: Int, columns: Int, rows: Int) throws {
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.columns = columns
        self.rows = rows
        self.pictureWidth = pictureWidth
        self.pictureHeight = pictureHeight
        graph = try FilterGraph(
            description: "[in]scale=\(tileWidth):\(tileHeight):flags=bicubic+accurate_rnd+full_chroma_int,format=yuvj420p,"
                + "tile=\(columns)x\(rows)[out]",
            sources: [.video(.init(label: "in", width: pictureWidth, height: pictureHeight, pixelFormat: AV_PIX_FMT_RGBA.rawValue,
                                   timeBase: AVRational(num: 1, den: 1), frameRate: AVRational(num: 1, den: 1)))],
            sinkLabels: ["out"], sinkIsAudio: [false], threads: 1)
        sheet = try Frame()
    }

    /// Adds the next picture (RGBA8, the size given at creation); returns the JPEG bytes of every sheet completed.
    func add(_ picture: VideoFrame) throws -> [Data] {
        let frame = try Frame()
        try frame.allocatePicture(width: picture.width, height: picture.height, pixelFormat: AV_PIX_FMT_RGBA)
        guard let destination = frame.plane(0) else { throw FFmpegError.posix(ENOMEM) }
        let lineSize = frame.bytesPerRow(ofPlane: 0), rowBytes = picture.width * 4
        picture.pixels.withUnsafeBytes { source in
            guard let base = source.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            for row in 0..<picture.height {
                (destination + row * lineSize).update(from: base + row * picture.bytesPerRow, count: rowBytes)
            }
        }
        frame.pts = pushed
        pushed += 1
        try graph.push(frame, to: 0)
        return try completedSheets()
    }

    /// Ends the input; returns the last, partly filled sheet (if any).
    func finish() throws -> [Data] {
        try graph.push(nil, to: 0)
        return try completedSheets()
    }

    private func completedSheets() throws -> [Data] {
        var sheets: [Data] = []
        while try graph.pull(from: 0, into: sheet) == .frame {
            sheets.append(try Self.jpeg(sheet))
        }
        return sheets
    }

    /// The JFIF bytes of a `yuvj420p` picture (libavcodec's `mjpeg`; about one bit per pixel).
    static func jpeg(_ picture: Frame) throws -> Data {
        var video = EncoderConfiguration.Video(width: picture.width, height: picture.height, pixelFormat: AV_PIX_FMT_YUVJ420P,
                                               timeBase: AVRational(num: 1, den: 1), frameRate: AVRational(num: 1, den: 1))
        video.color = ColorTags(range: AVCOL_RANGE_JPEG, primaries: AVCOL_PRI_UNSPECIFIED, transfer: AVCOL_TRC_UNSPECIFIED,
                                matrix: AVCOL_SPC_BT470BG)
        var configuration = EncoderConfiguration(encoderName: "mjpeg", media: .video(video))
        configuration.bitRate = Int64(max(picture.width * picture.height * 2, 400_000))
        configuration.threadCount = 1
        let copy = try picture.clone()
        copy.resetPictureType()
        return Data(try Encoder(configuration: configuration).encodeSinglePicture(copy))
    }
}
