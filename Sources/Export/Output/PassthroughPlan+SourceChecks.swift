import SpliceFFmpeg
import Foundation
internal import CMedia

extension PassthroughPlan {
    /// The checks that need the sources' packets, made before any file is written (by export and by
    /// `AssetExportSession.validate()` alike): the container holds each track's codec; every segment of a track has
    /// the first one's codec parameters; each video segment starts on a key frame and ends where no kept picture is
    /// decoded after a cut one (``PassthroughPieceReader/checkCuts()``: one or two groups of pictures read per cut).
    /// Runs on the calling (worker) thread: it opens and reads files.
    /// - Throws: ``ExportError/passthroughNotPossible(_:)`` naming the segment and the cause;
    ///   ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    func checkSources(cancellation: CancellationFlag) throws {
        for track in tracks {
            guard let first = track.pieces.first else { continue }
            let reference = try PassthroughPieceReader(piece: first, trackID: track.trackID, cancellation: cancellation)
            try Self.checkContainer(fileType, holds: reference, track: track.trackID)
            try reference.checkCuts()
            for piece in track.pieces.dropFirst() {
                if cancellation.isCancelled { throw CancellationError() }
                let reader = try PassthroughPieceReader(piece: piece, trackID: track.trackID, cancellation: cancellation)
                try Self.checkJoinable(reader, after: reference, track: track.trackID)
                try reader.checkCuts()
            }
        }
    }

    /// Each audio track's first cut off its source's packet grid (``PassthroughPieceReader/offGridCut()``), nil for a
    /// track whose every cut is on it, in the plan's track order. Reads a few packets around each cut.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    func offGridAudioCuts(cancellation: CancellationFlag) throws -> [(trackID: Int32, cut: String?)] {
        try tracks.filter { $0.mediaType == .audio }.map { track in
            for piece in track.pieces {
                if cancellation.isCancelled { throw CancellationError() }
                let reader = try PassthroughPieceReader(piece: piece, trackID: track.trackID, cancellation: cancellation)
                if let cut = try reader.offGridCut() { return (track.trackID, cut) }
            }
            return (track.trackID, nil)
        }
    }

    /// Refuses a copy whose codec `fileType`'s muxer cannot hold (`reference` reads the track's first piece); the
    /// one check planning and writing both make.
    /// - Throws: ``ExportError/passthroughNotPossible(_:)`` naming the file type, the codec and the track.
    static func checkContainer(_ fileType: FileType, holds reference: PassthroughPieceReader, track: Int32) throws {
        guard !OutputFile.muxer(named: fileType.muxerName, canHold: reference.source.codecID) else { return }
        throw ExportError.passthroughNotPossible(
            "a .\(fileType.rawValue) file cannot hold \(reference.piece.source.codecName) (track \(track)) without re-encoding")
    }

    /// Refuses joining `reader`'s piece after `reference`'s (the track's first) when their codec parameters differ
    /// (``codecDifference(_:_:)``); the one check planning and writing both make.
    /// - Throws: ``ExportError/passthroughNotPossible(_:)`` naming both segments and the first difference.
    static func checkJoinable(_ reader: PassthroughPieceReader, after reference: PassthroughPieceReader, track: Int32) throws {
        let difference = reference.source.withCodecParameters { a in
            reader.source.withCodecParameters { b in codecDifference(a, b) }
        }
        guard let difference else { return }
        throw ExportError.passthroughNotPossible(
            "\(reference.piece.name(track: track)) and \(reader.piece.name(track: track)) have different codec "
                + "parameters (\(difference)); joining them needs re-encoding")
    }

    /// The first codec parameter that differs between two streams, described, or nil when they can be joined.
static func codecDifference(_ a: UnsafePointer<AVCodecParameters>, _ b: UnsafePointer<AVCodecParameters>) -> String? {
        let x = a.pointee, y = b.pointee
        func name(_ id: AVCodecID) -> String { String(cString: avcodec_get_name(id)) }
        func profile(_ p: AVCodecParameters) -> String {
            avcodec_profile_name(p.codec_id, p.profile).map { String(cString: $0) } ?? "\(p.profile)"
        }
        if x.codec_id != y.codec_id { return "codec \(name(x.codec_id)) vs \(name(y.codec_id))" }
        if x.codec_type == AVMEDIA_TYPE_VIDEO {
            if x.profile != y.profile { return "profile \(profile(x)) vs \(profile(y))" }
            if x.width != y.width || x.height != y.height {
                return "size \(x.width)x\(x.height) vs \(y.width)x\(y.height) pixels"
            }
            if x.format != y.format {
                func format(_ value: Int32) -> String {
                    av_get_pix_fmt_name(AVPixelFormat(rawValue: value)).map { String(cString: $0) } ?? "\(value)"
                }
                return "pixel format \(format(x.format)) vs \(format(y.format))"
            }
        } else {
            if x.sample_rate != y.sample_rate { return "sample rate \(x.sample_rate) Hz vs \(y.sample_rate) Hz" }
            if x.ch_layout.nb_channels != y.ch_layout.nb_channels {
                return "\(x.ch_layout.nb_channels) vs \(y.ch_layout.nb_channels) channels"
            }
        }
        let sameExtradata = x.extradata_size == y.extradata_size
            && (x.extradata_size == 0 || memcmp(x.extradata, y.extradata, Int(x.extradata_size)) == 0)
        if !sameExtradata {
            return "decoder configuration (extradata: \(x.extradata_size) vs \(y.extradata_size) bytes, different content)"
        }
        return nil
    }
}
