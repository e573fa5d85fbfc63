#!/usr/bin/env bash
# Renders the README's and the home page's picture with Seekframe itself: the bundled composition
# compositions/ui-3d-reveal at high quality, then its end card (5.6 s) scaled to 960 px as a JPEG.
# Run from anywhere after set-up (bash scripts/setup.sh); writes docs/public/ui-3d-reveal.jpg.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
node core/cli/bin/seekframe.js render compositions/ui-3d-reveal --quality high -o "$WORK/ui-3d-reveal.mp4" -q
ffmpeg -v error -y -ss 5.6 -i "$WORK/ui-3d-reveal.mp4" -frames:v 1 -vf scale=960:-1 -q:v 3 docs/public/ui-3d-reveal.jpg
echo "docs/public/ui-3d-reveal.jpg ($(stat -c %s docs/public/ui-3d-reveal.jpg) bytes)"
