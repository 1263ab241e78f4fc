import Foundation
import Composition
import SpliceFFmpeg

/// An ``AssetWriterDelegate`` that writes a segment writer's output as HLS files in a directory: the
/// initialization segment, one file per media segment as it arrives, and, after ``AssetWriter/finishWriting()``,
/// an ``HLSMediaPlaylist`` naming them (``writePlaylist()``).
///
/// ```swift
/// let writer = try AssetWriter(contentType: .mp4)
/// writer.outputFileTypeProfile = .mpeg4AppleHLS
/// writer.preferredOutputSegmentInterval = MediaTime(seconds: 6)
/// let files = try HLSSegmentFileWriter(directory: folder)
/// writer.delegate = files
/// … add inputs, append, finishWriting() …
/// let playlist = try files.writePlaylist()      // folder/playlist.m3u8
/// ```
///
/// Files are written whole under their final names (`init.mp4`, `segment0.m4s`, `segment1.m4s`, …); existing files
/// of those names are not replaced (the write fails the writer instead).
public final class HLSSegmentFileWriter: AssetWriterDelegate {
    /// The folder the files are written in.
    public let directory: URL
    /// The initialization segment's file name.
    public let initializationSegmentName: String
    /// Media segment k is named `segmentNamePrefix` + k + `.m4s`.
    public let segmentNamePrefix: String
    /// The playlist's file name.
    public let playlistName: String

    private struct State {
        var segments: [HLSMediaPlaylist.Segment] = []
        var initializationWritten = false
    }

    private let state = Locked(State())

    /// A delegate writing into `directory` (which must exist).
    /// - Throws: ``AssetWriterError/invalidState(operation:reason:)`` when `directory` is not an existing folder.
    public init(directory: URL, initializationSegmentName: String = "init.mp4", segmentNamePrefix: String = "segment",
                playlistName: String = "playlist.m3u8") throws {
        var isFolder: ObjCBool = false
        guard directory.isFileURL, FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw AssetWriterError.invalidState(operation: "write HLS files", reason: "\(directory.path) is not an existing folder")
        }
        self.directory = directory
        self.initializationSegmentName = initializationSegmentName
        self.segmentNamePrefix = segmentNamePrefix
        self.playlistName = playlistName
    }

    /// The playlist of the segments written so far.
    public var playlist: HLSMediaPlaylist {
        HLSMediaPlaylist(initializationSegmentURI: initializationSegmentName, segments: state.withLock { $0.segments })
    }

    /// Writes the segment's file (`Data.write` without replacing an existing file) and records its duration.
    public func assetWriter(_ writer: AssetWriter, didOutputSegmentData segmentData: Data, segmentType: AssetSegmentType,
                            segmentReport: AssetSegmentReport?) throws {
        let name: String
        switch segmentType {
        case .initialization: name = initializationSegmentName
        case .separable: name = "\(segmentNamePrefix)\(segmentReport?.sequenceNumber ?? state.withLock { $0.segments.count }).m4s"
        }
        try segmentData.write(to: directory.appendingPathComponent(name), options: .withoutOverwriting)
        state.withLock { state in
            switch segmentType {
            case .initialization: state.initializationWritten = true
            case .separable: state.segments.append(HLSMediaPlaylist.Segment(uri: name, duration: segmentReport?.duration ?? .zero))
            }
        }
    }

    /// Writes the playlist of every segment written (``playlist``'s text) as ``playlistName``; call after
    /// ``AssetWriter/finishWriting()``.
    /// - Returns: the playlist's URL.
    /// - Throws: ``AssetWriterError/invalidState(operation:reason:)`` when no media segment was written; Foundation's
    ///   error when the file cannot be written (an existing playlist is not replaced).
    @discardableResult
    public func writePlaylist() throws -> URL {
        let (initialized, count) = state.withLock { ($0.initializationWritten, $0.segments.count) }
        guard initialized, count > 0 else {
            throw AssetWriterError.invalidState(operation: "write the playlist", reason: "no media segment was written")
        }
        let url = directory.appendingPathComponent(playlistName)
        try Data(playlist.text.utf8).write(to: url, options: .withoutOverwriting)
        return url
    }
}
