#!/usr/bin/env bash
# Set up (system packages, npm ci, build), then run the whole test suite. Vitest's summary is the
# last output and its exit code is this script's. Extra arguments go to `vitest run`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh
# npx itself stays quiet (npm notices would interleave with our output).
export npm_config_loglevel=error
exec npx --no-install vitest run "$@"
