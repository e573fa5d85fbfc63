#!/usr/bin/env bash
# Makes the small media files the check corpus uses (committed next to the compositions, so each
# folder renders as it is). Run from anywhere with ffmpeg on PATH; rewrites every file it makes.
# Everything is generated (test patterns, gradients, tones): no third-party footage or music.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ff() { ffmpeg -v error -y "$@"; }
out() { mkdir -p "$1"; echo "$1"; }

# Slideshow: four "photos" (ffmpeg's gradient and fractal sources), JPEG 960x540.
S="$(out "$ROOT/check/slideshow")"
ff -f lavfi -i "gradients=s=960x540:c0=0x1d3557:c1=0xe63946:c2=0xf1faee:nb_colors=3:seed=4:type=radial" -frames:v 1 -q:v 7 "$S/coast.jpg"
ff -f lavfi -i "mandelbrot=s=640x360:start_scale=1.2:end_scale=1.2" -frames:v 1 -q:v 12 "$S/nebula.jpg"
ff -f lavfi -i "gradients=s=960x540:c0=0x264653:c1=0x2a9d8f:c2=0xe9c46a:c3=0xf4a261:nb_colors=4:seed=11:type=spiral" -frames:v 1 -q:v 7 "$S/dunes.jpg"
ff -f lavfi -i "gradients=s=960x540:c0=0x0b132b:c1=0x5bc0be:nb_colors=2:seed=2:type=linear" -frames:v 1 -q:v 7 "$S/harbour.jpg"

# Social quote: a square "portrait" and a background.
Q="$(out "$ROOT/check/social-quote")"
ff -f lavfi -i "gradients=s=256x256:c0=0xffb703:c1=0xfb8500:c2=0x8ecae6:nb_colors=3:seed=7:type=radial" -frames:v 1 -q:v 6 "$Q/avatar.jpg"
ff -f lavfi -i "gradients=s=540x960:c0=0x03045e:c1=0x0077b6:c2=0x00b4d8:nb_colors=3:seed=9:type=linear" -frames:v 1 -q:v 7 "$Q/backdrop.jpg"

# Video with sound: a 3 s test pattern with a tone, and a music bed (a soft A-minor chord that
# fades in and out), both near -16 LUFS once mixed.
V="$(out "$ROOT/check/video-audio")"
ff -f lavfi -i "testsrc2=s=640x360:r=30:d=3" -f lavfi -i "sine=frequency=440:duration=3:sample_rate=48000" \
  -af "volume=6dB,afade=t=in:d=0.2,afade=t=out:st=2.7:d=0.3" -c:v libx264 -crf 34 -preset veryslow -pix_fmt yuv420p \
  -c:a aac -b:a 48k -ac 2 -shortest -movflags +faststart "$V/interview.mp4"
ff -f lavfi -i "sine=frequency=220:duration=4:sample_rate=48000" -f lavfi -i "sine=frequency=261.63:duration=4:sample_rate=48000" \
  -f lavfi -i "sine=frequency=329.63:duration=4:sample_rate=48000" \
  -filter_complex "[0][1][2]amix=inputs=3,volume=4dB,afade=t=in:d=0.5,afade=t=out:st=3.2:d=0.8" -ac 2 -c:a aac -b:a 48k "$V/music.m4a"

# Podcast card: a voice-like tone that comes and goes (tremolo), about -16 LUFS.
P="$(out "$ROOT/check/podcast-card")"
ff -f lavfi -i "sine=frequency=180:duration=4:sample_rate=48000" -af "tremolo=f=3:d=0.7,volume=10dB" -ac 2 -c:a aac -b:a 48k "$P/episode.m4a"

# Broken on purpose (corpus/check-broken/audio/*): digital silence, a clip that hits full scale,
# a mix far below the loudness target; and (page/load-failed) an audio file that is not audio.
B="$ROOT/check-broken"
mkdir -p "$B/audio/silent" "$B/audio/clipping" "$B/audio/loudness" "$B/page/load-failed"
ff -f lavfi -i "anullsrc=r=48000:cl=stereo" -t 2 -c:a aac -b:a 32k "$B/audio/silent/gap.m4a"
ff -f lavfi -i "sine=frequency=440:duration=2:sample_rate=48000" -af "volume=4dB,volume=24dB:enable='between(t,1,1.08)'" -ac 2 -c:a aac -b:a 48k "$B/audio/clipping/hit.m4a"
ff -f lavfi -i "sine=frequency=440:duration=3:sample_rate=48000" -af "volume=-16dB" -ac 2 -c:a aac -b:a 32k "$B/audio/loudness/whisper.m4a"
printf 'this is not an audio file\n' > "$B/page/load-failed/voice.mp3"
echo "corpus media written"
