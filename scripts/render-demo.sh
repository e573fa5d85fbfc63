#!/usr/bin/env bash
# Set up, check the machine, lint and render the default composition to renders/ui-3d-reveal.mp4.
# Extra arguments go to `seekframe render` (e.g. --quality draft).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh
# npx itself stays quiet (npm notices would interleave with our output).
export npm_config_loglevel=error
npx --no-install seekframe doctor
npx --no-install seekframe lint compositions/ui-3d-reveal

npx --no-install seekframe render compositions/ui-3d-reveal --output renders/ui-3d-reveal.mp4 "$@"
