// CMedia: the C surface of FFmpeg that Splice's engines (through SpliceFFmpeg, Export, Capture) use.
// Only what Swift cannot import directly is shimmed here (function-like and compound-literal macros,
// version differences). Every shim is named `cmedia_` + the C name it stands for, so grepping the
// C name finds it. FFmpeg 5.1 (Debian 12) is the oldest supported version.
#ifndef CMEDIA_H
#define CMEDIA_H

#include <errno.h>
// glibc's mallopt (M_MMAP_THRESHOLD, M_ARENA_MAX): executables fix the heap's mmap threshold and arenas (Export's ProcessHeap).
#include <malloc.h>
// prctl (PR_SET_THP_DISABLE): executables keep the encoder's buffers off transparent huge pages (ProcessHeap).
#include <sys/prctl.h>
#include <stdarg.h>
#include <stdio.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavdevice/avdevice.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/avutil.h>
#include <libavutil/cpu.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/mastering_display_metadata.h>
#include <string.h>
#include <libavutil/md5.h>
#include <libavutil/murmur3.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

// prctl is variadic, which Swift cannot call: a fixed five-argument form.
static inline int cmedia_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
                               unsigned long arg5) {
    return prctl(option, arg2, arg3, arg4, arg5);
}
// AVERROR(e) is a function-like macro.
static inline int cmedia_AVERROR(int e) { return AVERROR(e); }
// AVERROR_EOF and the other FFERRTAG codes are compound macros.
static inline int cmedia_AVERROR_EOF(void) { return AVERROR_EOF; }
// AVERROR(EAGAIN): "try again" in the send/receive loops.
static inline int cmedia_AVERROR_EAGAIN(void) { return AVERROR(EAGAIN); }
// AVERROR_INVALIDDATA is an FFERRTAG macro.
static inline int cmedia_AVERROR_INVALIDDATA(void) { return AVERROR_INVALIDDATA; }
// AVERROR_DECODER_NOT_FOUND is an FFERRTAG macro.
static inline int cmedia_AVERROR_DECODER_NOT_FOUND(void) { return AVERROR_DECODER_NOT_FOUND; }
// AVERROR_ENCODER_NOT_FOUND is an FFERRTAG macro.
static inline int cmedia_AVERROR_ENCODER_NOT_FOUND(void) { return AVERROR_ENCODER_NOT_FOUND; }
// AVERROR_EXIT is an FFERRTAG macro (returned when the interrupt callback stops blocking I/O).
static inline int cmedia_AVERROR_EXIT(void) { return AVERROR_EXIT; }
// AV_NOPTS_VALUE is a cast expression macro.
static inline int64_t cmedia_AV_NOPTS_VALUE(void) { return AV_NOPTS_VALUE; }
// AV_TIME_BASE_Q is a compound literal.
static inline AVRational cmedia_AV_TIME_BASE_Q(void) { AVRational q = {1, AV_TIME_BASE}; return q; }

// av_err2str is a macro over a compound-literal buffer; this writes into the caller's buffer instead.
static inline void cmedia_av_err2str(int errnum, char *buf, size_t size) {
    if (av_strerror(errnum, buf, size) < 0) snprintf(buf, size, "unknown FFmpeg error %d", errnum);
}

// AV_CHANNEL_LAYOUT_STEREO is a compound literal.
static inline AVChannelLayout cmedia_AV_CHANNEL_LAYOUT_STEREO(void) { AVChannelLayout l = AV_CHANNEL_LAYOUT_STEREO; return l; }

// LIB*_VERSION_INT are function-like macro expansions (AV_VERSION_INT): the versions compiled against.
static inline unsigned cmedia_LIBAVFORMAT_VERSION_INT(void) { return LIBAVFORMAT_VERSION_INT; }
static inline unsigned cmedia_LIBAVCODEC_VERSION_INT(void) { return LIBAVCODEC_VERSION_INT; }
static inline unsigned cmedia_LIBAVFILTER_VERSION_INT(void) { return LIBAVFILTER_VERSION_INT; }
static inline unsigned cmedia_LIBAVUTIL_VERSION_INT(void) { return LIBAVUTIL_VERSION_INT; }

// AVFrame.duration exists from lavu 57.30.100 (FFmpeg 6.0); before it the field is pkt_duration.
// Makes `buffer` plane `index` (0...3) of a picture frame, its rows `linesize` bytes apart: `buf`, `data` and
// `linesize` set, `extended_data` pointing at `data` (as av_frame_get_buffer leaves a picture).
static inline void cmedia_AVFrame_set_plane(AVFrame *frame, int index, AVBufferRef *buffer, int linesize) {
    frame->buf[index] = buffer;
    frame->data[index] = buffer->data;
    frame->linesize[index] = linesize;
    frame->extended_data = frame->data;
}

static inline int64_t cmedia_AVFrame_duration(const AVFrame *frame) {
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(57, 30, 100)
    return frame->duration;
#else
    return frame->pkt_duration;
#endif
}

// The display matrix side data of a stream (9 int32 values, 16.16 fixed point), or NULL.
// av_stream_get_side_data's size parameter type changed (int -> size_t) between versions.
static inline const int32_t *cmedia_av_stream_get_display_matrix(const AVStream *stream) {
#if LIBAVFORMAT_VERSION_INT >= AV_VERSION_INT(60, 15, 100)
    const AVPacketSideData *sd = av_packet_side_data_get(stream->codecpar->coded_side_data,
                                                         stream->codecpar->nb_coded_side_data,
                                                         AV_PKT_DATA_DISPLAYMATRIX);
    return sd && sd->size >= 9 * sizeof(int32_t) ? (const int32_t *)sd->data : NULL;
#else
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    return data && size >= 9 * sizeof(int32_t) ? (const int32_t *)data : NULL;
#endif
}

// A stream's side data of `type` (its bytes, *size set), or NULL: the container's mdcv/clli boxes arrive here as
// AV_PKT_DATA_MASTERING_DISPLAY_METADATA / AV_PKT_DATA_CONTENT_LIGHT_LEVEL. Moved to codecpar in lavf 60.15.
static inline const uint8_t *cmedia_av_stream_get_side_data(const AVStream *stream, enum AVPacketSideDataType type,
                                                            size_t *size) {
#if LIBAVFORMAT_VERSION_INT >= AV_VERSION_INT(60, 15, 100)
    const AVPacketSideData *sd = av_packet_side_data_get(stream->codecpar->coded_side_data,
                                                         stream->codecpar->nb_coded_side_data, type);
    if (!sd) return NULL;
    *size = sd->size;
    return sd->data;
#else
    return av_stream_get_side_data(stream, type, size);
#endif
}

// Attaches a copy of `size` bytes as the stream's side data of `type` before avformat_write_header (movenc then
// writes mdcv/clli boxes). av_stream_new_side_data is replaced by codecpar's coded side data in lavf 60.15.
// Returns 0 or AVERROR(ENOMEM).
static inline int cmedia_av_stream_add_side_data(AVStream *stream, enum AVPacketSideDataType type,
                                                 const void *data, size_t size) {
#if LIBAVFORMAT_VERSION_INT >= AV_VERSION_INT(60, 15, 100)
    AVPacketSideData *sd = av_packet_side_data_new(&stream->codecpar->coded_side_data,
                                                   &stream->codecpar->nb_coded_side_data, type, size, 0);
#else
    uint8_t *sd = av_stream_new_side_data(stream, type, size);
#endif
    if (!sd) return AVERROR(ENOMEM);
#if LIBAVFORMAT_VERSION_INT >= AV_VERSION_INT(60, 15, 100)
    memcpy(sd->data, data, size);
#else
    memcpy(sd, data, size);
#endif
    return 0;
}

// avio_alloc_context's write callback takes `uint8_t *` before lavf 61 and `const uint8_t *` from lavf 61 on; Swift
// sees one callback type (const). Returns a write-only, non-seekable context over `buffer` (av_malloc'd, `size`
// bytes; the context may replace it, so free the context's own `buffer` field), or NULL when out of memory.
typedef int (*cmedia_avio_write_packet)(void *opaque, const uint8_t *buf, int buf_size);
static inline AVIOContext *cmedia_avio_alloc_context(unsigned char *buffer, int size, void *opaque,
                                                     cmedia_avio_write_packet write_packet) {
#if LIBAVFORMAT_VERSION_MAJOR < 61
    return avio_alloc_context(buffer, size, 1, opaque, NULL, (int (*)(void *, uint8_t *, int))write_packet, NULL);
#else
    return avio_alloc_context(buffer, size, 1, opaque, NULL, write_packet, NULL);
#endif
}

#endif
