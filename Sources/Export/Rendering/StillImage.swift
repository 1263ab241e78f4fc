import Foundation
internal import CMedia

/// Decodes the first picture of an image file (PNG, JPEG, …) for overlays.
enum StillImage {
    static func decode(url: URL, cancellation: CancellationFlag) throws -> Frame {
        let input: InputFile
        do {
            input = try InputFile(url: url, cancellation: cancellation)
        } catch let error as AssetLoadingError {
            throw ExportError.sourceUnreadable(url, reason: error.description)
        }
        let streamIndex = Int(av_find_best_stream(input.pointer, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0))
        guard streamIndex >= 0 else { throw ExportError.sourceUnreadable(url, reason: "it holds no picture") }
        let decoder = try StreamDecoder(input: input, streamIndex: streamIndex, label: "its picture", threads: 1)
        let frame = try Frame()
        guard try decoder.decode(into: frame) else {
            throw ExportError.sourceUnreadable(url, reason: "it holds no decodable picture")
        }
        return frame
    }
}
