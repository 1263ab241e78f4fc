internal import CMedia

extension Frame {
    /// The number of audio channels (`ch_layout.nb_channels`); 0 for a picture.
    package var channelCount: Int { Int(pointer.pointee.ch_layout.nb_channels) }

    /// Calls `body` with each audio channel's samples in time order, as linear amplitudes (full scale ±1.0), one
    /// buffer of ``sampleCount`` values per channel (channel 0 first).
    ///
    /// Reads every FFmpeg sample format, packed or planar: `u8` (offset 128, /128), `s16` (/32768), `s32` (/2³¹),
    /// `s64` (/2⁶³), `flt`, `dbl`. Nothing is called for a picture or an unknown format.
    package func forEachChannel(_ body: (_ channel: Int, _ samples: [Float]) -> Void) {
        let channels = channelCount, count = sampleCount
        let format = AVSampleFormat(rawValue: pointer.pointee.format)
        guard channels > 0, count > 0, pointer.pointee.format >= 0 else { return }
        let planar = av_sample_fmt_is_planar(format) != 0
        let packed = av_get_packed_sample_fmt(format)
        let scale: (UnsafeRawPointer, Int) -> Float
        switch packed {
        case AV_SAMPLE_FMT_U8: scale = { Float(Int($0.load(fromByteOffset: $1, as: UInt8.self)) - 128) / 128 }
        case AV_SAMPLE_FMT_S16: scale = { Float($0.loadUnaligned(fromByteOffset: $1 * 2, as: Int16.self)) / 32_768 }
        case AV_SAMPLE_FMT_S32: scale = { Float($0.loadUnaligned(fromByteOffset: $1 * 4, as: Int32.self)) / 2_147_483_648 }
        case AV_SAMPLE_FMT_S64: scale = { Float(Double($0.loadUnaligned(fromByteOffset: $1 * 8, as: Int64.self)) / 9.223372036854775808e18) }
        case AV_SAMPLE_FMT_FLT: scale = { $0.loadUnaligned(fromByteOffset: $1 * 4, as: Float.self) }
        case AV_SAMPLE_FMT_DBL: scale = { Float($0.loadUnaligned(fromByteOffset: $1 * 8, as: Double.self)) }
        default: return
        }
        for channel in 0..<channels {
            let base: UnsafeMutablePointer<UInt8>?
            if planar {
                base = pointer.pointee.extended_data?[channel]
            } else {
                base = pointer.pointee.extended_data?[0]
            }
            guard let base else { return }
            let raw = UnsafeRawPointer(base)
            var samples = [Float](repeating: 0, count: count)
            for index in 0..<count {
                samples[index] = scale(raw, planar ? index : index * channels + channel)
            }
            body(channel, samples)
        }
    }
}
