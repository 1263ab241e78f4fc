#!/usr/bin/env bash
# W1 (the canonical edit) through MLT's melt, for Benchmarks/run's optional peer row.
# Usage: melt_w1.sh INPUTS_DIR OUT.mp4
# The same edit as Workloads.canonical (Splice) and cli_canonical (ffmpeg), in MLT XML: clip A then clip B, A fading
# to black over its last second (brightness, as Shotcut's fade-out), both clips' audio at 0.5 (-6.02 dB), the music
# under both fading out linearly over the last 3 s (volume gain 1 -> end 0), the watermark bottom-right (affine);
# libx264 preset medium CRF 23, 2 s GOP, AAC 128 kb/s 48 kHz, moov first; no frame dropping (real_time=-2).
set -euo pipefail
inputs=$1 out=$2
read -r W H < <(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 "$inputs/clipA.mp4" | tr ',' ' ')
xml=$(mktemp --suffix=.mlt)
trap 'rm -f "$xml"' EXIT
cat > "$xml" <<XML
<?xml version="1.0" encoding="utf-8"?>
<mlt>
  <profile width="$W" height="$H" frame_rate_num="30" frame_rate_den="1" progressive="1" sample_aspect_num="1"
           sample_aspect_den="1" display_aspect_num="16" display_aspect_den="9" colorspace="709"/>
  <producer id="a"><property name="resource">$inputs/clipA.mp4</property></producer>
  <producer id="b"><property name="resource">$inputs/clipB.mp4</property></producer>
  <producer id="music"><property name="resource">$inputs/music.mp3</property></producer>
  <producer id="wm"><property name="resource">$inputs/watermark.png</property><property name="length">600</property></producer>
  <playlist id="video">
    <entry producer="a" in="0" out="299">
      <filter><property name="mlt_service">brightness</property><property name="level">0=1;270=1;299=0</property></filter>
      <filter><property name="mlt_service">volume</property><property name="level">-6.0206</property></filter>
    </entry>
    <entry producer="b" in="0" out="299">
      <filter><property name="mlt_service">volume</property><property name="level">-6.0206</property></filter>
    </entry>
  </playlist>
  <playlist id="musictrack">
    <entry producer="music" in="0" out="599">
      <filter in="510" out="599"><property name="mlt_service">volume</property><property name="gain">1</property><property name="end">0</property></filter>
    </entry>
  </playlist>
  <playlist id="wmtrack"><entry producer="wm" in="0" out="599"/></playlist>
  <tractor>
    <multitrack>
      <track producer="video"/>
      <track producer="musictrack" hide="video"/>
      <track producer="wmtrack" hide="audio"/>
    </multitrack>
    <transition><property name="mlt_service">mix</property><property name="a_track">0</property>
      <property name="b_track">1</property><property name="always_active">1</property><property name="sum">1</property></transition>
    <transition><property name="mlt_service">affine</property><property name="a_track">0</property>
      <property name="b_track">2</property><property name="always_active">1</property><property name="distort">1</property>
      <property name="fill">1</property><property name="rect">$((W - 216)) $((H - 96)) 200 80 1</property></transition>
  </tractor>
</mlt>
XML
melt -quiet "$xml" -consumer "avformat:$out" vcodec=libx264 preset=medium crf=23 g=60 pix_fmt=yuv420p \
  acodec=aac ab=128k ar=48000 channels=2 movflags=+faststart real_time=-2 2>&1 | grep -v "^Current Frame" || true
[ -s "$out" ]
