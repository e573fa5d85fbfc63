#!/usr/bin/env bash
# The whole suite on a busy machine: set-up (scripts/setup.sh), then `vitest run` beside
# `stress --cpu N` (Debian's stress: N processes spinning on sqrt() for the whole run; N = 2 by
# default, SEEKFRAME_STRESS_CPUS to change it). A test that passes only on a quiet machine fails
# here. Extra arguments go to `vitest run` (a folder or file to run only that part).
# Exit code: vitest's. The load average at the start and the end is printed last.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

CPUS="${SEEKFRAME_STRESS_CPUS:-2}"
if ! command -v stress >/dev/null 2>&1; then
  echo "test-under-load: stress is not installed; as root, scripts/setup.sh installs it (or: apt-get install stress)" >&2
  exit 2
fi

bash scripts/setup.sh
export npm_config_loglevel=error

stress --cpu "$CPUS" >/dev/null 2>&1 &
STRESS_PID=$!
# stress stops and reaps its workers on SIGTERM.
stop_stress() {
  kill -TERM "$STRESS_PID" 2>/dev/null || true
  wait "$STRESS_PID" 2>/dev/null || true
}
trap stop_stress EXIT

load_at_start="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
status=0
npx --no-install vitest run "$@" || status=$?
echo "test-under-load: stress --cpu $CPUS beside the suite; load average $load_at_start at the start, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') at the end; vitest exited $status"
exit "$status"
