#!/usr/bin/env bash
# npm run test:profile [-- <vitest run arguments>]: runs the suite (or the files given) with the
# profile on (scripts/test-suite/profile-setup.ts), then prints the 30 slowest files and what each
# spent its time on: wall and CPU seconds, browser launches, ffmpeg/npm/podman processes, CPU by
# kind of process, fixed sleeps in its source. Everything goes to $SEEKFRAME_PROFILE_OUT (default
# $TMPDIR/seekframe-test-profile): vitest.log, report.json, files/*.json, profile.md, time.txt.
# Exit code: vitest's.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${SEEKFRAME_PROFILE_OUT:-${TMPDIR:-/tmp}/seekframe-test-profile}"
rm -rf "$OUT"
mkdir -p "$OUT/files"
export npm_config_loglevel=error

started=$(date +%s)
load_before="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
TIMEFORMAT="wall %R s, CPU user %U s + system %S s (vitest and every process it waited for)"
{ time (
  SEEKFRAME_TEST_PROFILE="$OUT/files" npx --no-install vitest run --reporter=default --reporter=json \
    --outputFile.json="$OUT/report.json" "$@" 2>&1 | tee "$OUT/vitest.log"
  exit "${PIPESTATUS[0]}"
); } 2>"$OUT/time.txt"
status=$?
load_after="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
{
  echo "$(date -u -d "@$started" +%FT%TZ): load average ${load_before} at the start, ${load_after} at the end"
} >>"$OUT/time.txt"

npx --no-install tsx scripts/test-suite/profile-report.ts --profile "$OUT/files" --report "$OUT/report.json" >"$OUT/profile.md"
cat "$OUT/profile.md"
echo
cat "$OUT/time.txt"
echo "profile: $OUT"
exit "$status"
