internal import CMedia

extension Frame {
    /// A new audio frame holding this frame's samples from index `start` on (`sampleCount − start` samples, copied
    /// with `av_samples_copy` into buffers of its own, so they stay aligned as FFmpeg's filters expect), with the
    /// same sample format, rate and channel layout; its `pts` is this frame's plus `start`. Used to cut sound at an
    /// exact sample at the front of a buffer (``truncateSamples(to:)`` cuts at the back).
    /// - Throws: ``FFmpegError`` (ENOMEM; EINVAL for a picture or a `start` outside `0..<sampleCount`).
    package func samples(from start: Int) throws -> Frame {
        guard channelCount > 0, start >= 0, start < sampleCount else { throw FFmpegError.posix(EINVAL) }
        let copy = try Frame()
        let count = sampleCount - start
        copy.pointer.pointee.nb_samples = Int32(count)
        copy.pointer.pointee.format = pointer.pointee.format
        copy.pointer.pointee.sample_rate = pointer.pointee.sample_rate
        try FFmpegError.check(av_channel_layout_copy(&copy.pointer.pointee.ch_layout, &pointer.pointee.ch_layout), in: "av_channel_layout_copy")
        try FFmpegError.check(av_frame_get_buffer(copy.pointer, 0), in: "av_frame_get_buffer")
        try FFmpegError.check(av_samples_copy(copy.pointer.pointee.extended_data, pointer.pointee.extended_data, 0, Int32(start),
                                              Int32(count), Int32(channelCount), AVSampleFormat(rawValue: pointer.pointee.format)), in: "av_samples_copy")
        copy.pts = pts == cmedia_AV_NOPTS_VALUE() ? pts : pts + Int64(start)
        return copy
    }
}

extension Frame {
    /// Multiplies each channel's samples by its linear gain in `gains` (channel 0 first; channels beyond the list
    /// keep theirs), in place; the buffers are made writable first (`av_frame_make_writable`: copied when shared,
    /// so a frame referenced elsewhere is not changed). Float sample formats (`flt`, `fltp`) only.
    /// - Throws: ``FFmpegError`` (EINVAL for another format or a picture; ENOMEM).
    package func scaleSamples(by gains: [Float]) throws {
        let format = AVSampleFormat(rawValue: pointer.pointee.format)
        guard channelCount > 0, format == AV_SAMPLE_FMT_FLTP || format == AV_SAMPLE_FMT_FLT else {
            throw FFmpegError.posix(EINVAL)
        }
        guard gains.contains(where: { $0 != 1 }) else { return }
        try FFmpegError.check(av_frame_make_writable(pointer), in: "av_frame_make_writable")
        let channels = channelCount, count = sampleCount
        guard let planes = pointer.pointee.extended_data else { return }
        for channel in 0..<min(channels, gains.count) where gains[channel] != 1 {
            let planar = format == AV_SAMPLE_FMT_FLTP
            guard let base = planes[planar ? channel : 0] else { continue }
            base.withMemoryRebound(to: Float.self, capacity: planar ? count : count * channels) { samples in
                for index in 0..<count { samples[planar ? index : index * channels + channel] *= gains[channel] }
            }
        }
    }
}
