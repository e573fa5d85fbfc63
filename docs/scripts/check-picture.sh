#!/usr/bin/env bash
# Makes the contact sheet the checking guide shows, with Seekframe itself: `seekframe check
# --snapshot` on corpus/check-demo (a promo with five mistakes), copied to
# docs/public/check-contact-sheet.png. Run from anywhere after set-up (bash scripts/setup.sh) and a
# build (npx turbo run build). The check exits 1 (the demo has errors on purpose).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
node core/cli/bin/seekframe.js check corpus/check-demo --samples 8 --snapshot "$WORK" > "$WORK/report.txt" || [ $? -eq 1 ]
cp "$WORK/contact-sheet.png" docs/public/check-contact-sheet.png
cat "$WORK/report.txt"
echo "docs/public/check-contact-sheet.png ($(stat -c %s docs/public/check-contact-sheet.png) bytes)"
