/// How a passthrough export (``ExportPreset/passthrough``) treats an audio track whose cuts fall off its source's
/// packet grid (AAC: 1024 samples, 21.3 ms at 48 kHz; a packet can only be copied whole).
public enum PassthroughAudioCuts: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every cut exact to the sample: an audio track with any cut off its source's packet grid (a segment's start or
    /// end, the export range's ends) is rendered and encoded as an ordinary export renders it — the source's sample
    /// rate and channel count, AAC at the source's bit rate (within 32–320 kb/s; 128 kb/s when the source states
    /// none) — while the video and the other tracks are copied. ``PassthroughReport`` names each such track and
    /// the cut that made it. The default.
    case exact
    /// The source's packets untouched: a cut off the packet grid is placed at the nearest packet boundary (within
    /// half a packet in MP4/MOV, one packet in Matroska, not adding up along the track).
    case nearestPacket
}
