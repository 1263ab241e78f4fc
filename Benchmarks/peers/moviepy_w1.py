"""W1 (the canonical edit) through MoviePy 2.x, for Benchmarks/run's optional peer row.

Usage: python3 moviepy_w1.py INPUTS_DIR OUT.mp4
The same edit as Workloads.canonical (Splice) and cli_canonical (ffmpeg): clip A then clip B, A fading to black over
its last second, both clips' audio at 0.5, the music under both fading out over the last 3 s, the watermark
bottom-right; libx264 preset medium CRF 23, 2 s GOP, AAC 128 kb/s 48 kHz, moov first.
"""
import sys

from moviepy import (AudioFileClip, CompositeAudioClip, CompositeVideoClip, ImageClip, VideoFileClip,
                     concatenate_videoclips, afx, vfx)

inputs, out = sys.argv[1], sys.argv[2]
a = VideoFileClip(f"{inputs}/clipA.mp4").subclipped(0, 10)
b = VideoFileClip(f"{inputs}/clipB.mp4").subclipped(0, 10)
width, height = a.size
a = a.with_effects([vfx.FadeOut(1)]).with_volume_scaled(0.5)
b = b.with_volume_scaled(0.5)
main = concatenate_videoclips([a, b])
watermark = ImageClip(f"{inputs}/watermark.png").with_duration(main.duration) \
    .with_position((width - 200 - 16, height - 80 - 16))
music = AudioFileClip(f"{inputs}/music.mp3").subclipped(0, 20).with_effects([afx.AudioFadeOut(3)])
video = CompositeVideoClip([main, watermark]).with_audio(CompositeAudioClip([main.audio, music]))
video.write_videofile(out, fps=30, codec="libx264", preset="medium", audio_codec="aac", audio_bitrate="128k",
                      audio_fps=48000, ffmpeg_params=["-crf", "23", "-g", "60", "-pix_fmt", "yuv420p",
                                                       "-movflags", "+faststart"], logger=None)
