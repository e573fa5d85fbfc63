#!/usr/bin/env bash
# Makes this checkout ready to build, test and render. Safe to run any number of times: when
# everything is present it prints nothing.
#   1. system packages (Debian/Ubuntu): Chromium + headless shell, ffmpeg, Noto fonts
#   2. npm dependencies (npm ci; also in tools/registry), only when node_modules is missing or older
#      than package-lock.json
#   3. build every package (turbo; cached, so quick when nothing changed)
#   (as root, or with passwordless sudo, also the container tools the image tests use: podman;
#   and `stress` for scripts/test-under-load.sh)
# Environment: SEEKFRAME_APT_PACKAGES overrides the package list; SEEKFRAME_NO_SUDO=1 never tries sudo.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# What a render needs (the Dockerfiles install the same list; core/cli/src/docker/dockerfile.test.ts checks).
APT_PACKAGES="${SEEKFRAME_APT_PACKAGES:-chromium chromium-headless-shell ffmpeg fonts-noto-core fonts-noto-color-emoji}"
# Only for the render fleet's tests, which start it on 127.0.0.1 (adapters/redis-fleet); a fleet
# needs any Redis 6.2+ somewhere, not on every render machine, so the render images leave it out.
FLEET_APT_PACKAGES="${SEEKFRAME_FLEET_APT_PACKAGES:-redis-server}"
# Only for testing apps/modal-function locally (FastAPI under uvicorn); not part of the render image.
TEMPLATE_APT_PACKAGES="${SEEKFRAME_TEMPLATE_APT_PACKAGES:-python3-fastapi python3-uvicorn}"
# Only for the tests that build and run the images (render --docker, the Cloudflare container, the
# Lambda functions) with Debian's podman: podman-docker provides the `docker` command, runc is the
# runtime that works where crun does not, mmdebstrap makes the base image when no registry is
# reachable, podman-compose starts infra/fleet/compose.yaml. Installed when this script can act as root;
# without them those tests skip and say why.
CONTAINER_APT_PACKAGES="${SEEKFRAME_CONTAINER_APT_PACKAGES:-podman podman-docker runc mmdebstrap uidmap slirp4netns fuse-overlayfs podman-compose}"
# Only for scripts/test-under-load.sh (the whole suite beside `stress --cpu 2`); installed as root.
TEST_APT_PACKAGES="${SEEKFRAME_TEST_APT_PACKAGES:-stress}"
MIN_NODE_MAJOR=20
MIN_NODE_MINOR=19

say() { printf 'seekframe setup: %s\n' "$*"; }
die() { printf 'seekframe setup: %s\n' "$*" >&2; exit 1; }

# Prints the packages of the given lists that dpkg does not list as installed (space-separated).
missing_apt_packages() {
  local pkg missing=""
  for pkg in "$@"; do
    if [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)" != "install ok installed" ]; then
      missing="${missing:+$missing }$pkg"
    fi
  done
  printf '%s' "$missing"
}

# Runs a command as root: directly when root, through passwordless sudo when that works.
# Returns 2 without running anything when neither is possible.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif [ "${SEEKFRAME_NO_SUDO:-}" != "1" ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo "$@"
  else
    return 2
  fi
}

install_system_packages() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    # Not Debian/Ubuntu: we cannot install for you; doctor says what is missing.
    say "not a Debian/Ubuntu system: install Chromium, ffmpeg and Noto fonts yourself, then run npx seekframe doctor"
    return 0
  fi
  local missing
  # shellcheck disable=SC2086 # the package lists are meant to split
  missing="$(missing_apt_packages $APT_PACKAGES $TEMPLATE_APT_PACKAGES $FLEET_APT_PACKAGES)"
  if as_root true; then
    # shellcheck disable=SC2086
    missing="$(missing_apt_packages $missing $CONTAINER_APT_PACKAGES $TEST_APT_PACKAGES)"
  fi
  [ -z "$missing" ] && return 0
  local install="apt-get install -y --no-install-recommends $missing"
  if ! as_root true; then
    printf 'seekframe setup: missing system packages: %s\n' "$missing" >&2
    printf 'Install them as root (no passwordless sudo here), then run this script again:\n' >&2
    printf '  sudo apt-get update && sudo %s\n' "$install" >&2
    exit 1
  fi
  say "installing $missing"
  local log
  log="$(mktemp)"
  # shellcheck disable=SC2086 # word splitting of the package list is intended
  if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$log" 2>&1 \
    || ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >>"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    die "apt-get failed (output above); run: $install"
  fi
  rm -f "$log"
}

check_node() {
  command -v node >/dev/null 2>&1 || die "node is not installed; install Node.js ${MIN_NODE_MAJOR}.${MIN_NODE_MINOR} or newer"
  local version major minor
  version="$(node -p 'process.versions.node')"
  major="${version%%.*}"
  minor="${version#*.}"
  minor="${minor%%.*}"
  if [ "$major" -lt "$MIN_NODE_MAJOR" ] || { [ "$major" -eq "$MIN_NODE_MAJOR" ] && [ "$minor" -lt "$MIN_NODE_MINOR" ]; }; then
    die "Node.js $version is too old; install ${MIN_NODE_MAJOR}.${MIN_NODE_MINOR} or newer"
  fi
}

# npm writes node_modules/.package-lock.json on every install; older than the lock file means
# someone changed dependencies since. $1: the folder (the repository root or tools/registry).
needs_npm_ci() {
  [ ! -f "$1/node_modules/.package-lock.json" ] || [ "$1/package-lock.json" -nt "$1/node_modules/.package-lock.json" ]
}

# Plain `npm ci`: installs exactly package-lock.json and never rewrites it. The lock is complete
# for every platform (other platforms' optional binaries included), so the same command works on
# Linux and macOS; if npm ci refuses it, the lock is out of date and someone must fix it.
npm_ci() {
  local dir="$1" log label
  needs_npm_ci "$dir" || return 0
  label="${dir#"$ROOT"}"
  say "installing npm dependencies${label:+ in ${label#/}} (npm ci)"
  log="$(mktemp)"
  if ! (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    die "npm ci failed in ${dir} (output above). If it says package.json and package-lock.json are not in sync, a dependency changed without its lock: run \`npm install\` there, commit package-lock.json, and check it with \`npx vitest run scripts/test/lock-file.test.ts\`."
  fi
  rm -f "$log"
}

install_npm_dependencies() {
  npm_ci "$ROOT"
  # Verdaccio, publint and arethetypeswrong for the tests of the published packages: their own
  # folder and lock, so the repository's lock stays free of a registry server's dependencies.
  npm_ci "$ROOT/tools/registry"
}

build_packages() {
  local log
  log="$(mktemp)"
  if ! TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1 npx --no-install turbo run build --output-logs=errors-only >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    die "build failed (output above)"
  fi
  rm -f "$log"
}

install_system_packages
check_node
install_npm_dependencies
build_packages
