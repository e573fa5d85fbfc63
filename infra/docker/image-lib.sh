# Sourced by the image build scripts (infra/docker/build-image.sh, the Cloudflare template's
# build:image, infra/lambda/build-image.sh): which container CLI, which base image, and one build
# step that records the installed versions as labels.
# shellcheck shell=bash

# The official base the Dockerfiles default to.
SEEKFRAME_OFFICIAL_BASE="docker.io/library/node:20-bookworm-slim"
# What make-local-base.sh makes when no registry is reachable.
SEEKFRAME_LOCAL_BASE="localhost/seekframe-base:bookworm-node20"

# Builds every workspace (turbo: cached, quick when nothing changed), then packs the given
# workspace folders into DEST as `npm run release` publishes them (tools/registry: the published
# manifest; a plain `npm pack` of a workspace is refused by its prepack): an image installs exactly
# this checkout's code, never a stale dist/.
#   seekframe_pack_workspaces DEST core/composition core/runtime ...
seekframe_pack_workspaces() {
  local dest="$1"
  shift
  npm run build --silent >/dev/null
  npx --no-install tsx tools/registry/src/pack-workspaces.ts "$dest" "$@" >/dev/null
}

# Sets ENGINE: $SEEKFRAME_CONTAINER_CLI, else docker when a Docker engine answers, else podman.
# With podman (also behind podman-docker's `docker`) and no containers.conf of your own, exports
# CONTAINERS_CONF=infra/podman/containers.conf (runc, cgroupfs, no default ulimits): the settings
# under which podman works inside containers and on hybrid-cgroup hosts.
seekframe_engine() {
  local root="$1"
  if [ -n "${SEEKFRAME_CONTAINER_CLI:-}" ]; then
    ENGINE="$SEEKFRAME_CONTAINER_CLI"
    command -v "$ENGINE" >/dev/null 2>&1 || { echo "SEEKFRAME_CONTAINER_CLI=$ENGINE is not on PATH" >&2; return 1; }
  elif command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    ENGINE=docker
  elif command -v podman >/dev/null 2>&1; then
    ENGINE=podman
  else
    echo "Neither a Docker engine nor podman is available: install Docker (https://docs.docker.com/engine/install/) or podman (apt-get install podman runc)." >&2
    return 1
  fi
  if "$ENGINE" --version 2>/dev/null | grep -qi podman \
    && [ -z "${CONTAINERS_CONF:-}" ] \
    && [ ! -e /etc/containers/containers.conf ] \
    && [ ! -e "${XDG_CONFIG_HOME:-${HOME:-/nonexistent}/.config}/containers/containers.conf" ]; then
    export CONTAINERS_CONF="$root/infra/podman/containers.conf"
    echo "podman: using $CONTAINERS_CONF (you have no containers.conf of your own)" >&2
  fi
}

# Prints the base image to build FROM: $SEEKFRAME_BASE_IMAGE; else the official image when the
# engine has it or can pull it; else the local one from Debian's packages (made when missing).
# SEEKFRAME_BASE_IMAGE=local: the local one without trying a registry (what the tests use).
seekframe_base_image() {
  local root="$1"
  if [ -n "${SEEKFRAME_BASE_IMAGE:-}" ] && [ "$SEEKFRAME_BASE_IMAGE" != "local" ]; then
    echo "$SEEKFRAME_BASE_IMAGE"
  elif [ "${SEEKFRAME_BASE_IMAGE:-}" != "local" ] && { "$ENGINE" image inspect "$SEEKFRAME_OFFICIAL_BASE" >/dev/null 2>&1 \
    || timeout 120 "$ENGINE" pull --quiet "$SEEKFRAME_OFFICIAL_BASE" >/dev/null 2>&1; }; then
    echo "$SEEKFRAME_OFFICIAL_BASE"
  elif "$ENGINE" image inspect "$SEEKFRAME_LOCAL_BASE" >/dev/null 2>&1 \
    || seekframe_cache_load "$SEEKFRAME_LOCAL_BASE" "$(seekframe_local_base_hash "$root")"; then
    echo "base image: $SEEKFRAME_LOCAL_BASE (made from Debian's packages): no registry has $SEEKFRAME_OFFICIAL_BASE for this engine, or SEEKFRAME_BASE_IMAGE=local" >&2
    echo "$SEEKFRAME_LOCAL_BASE"
  else
    echo "making $SEEKFRAME_LOCAL_BASE from Debian's packages (infra/docker/make-local-base.sh): no registry has $SEEKFRAME_OFFICIAL_BASE for this engine, or SEEKFRAME_BASE_IMAGE=local" >&2
    bash "$root/infra/docker/make-local-base.sh" "$SEEKFRAME_LOCAL_BASE" | tail -n 1
    seekframe_cache_save "$SEEKFRAME_LOCAL_BASE" "$(seekframe_local_base_hash "$root")"
  fi
}

# What the local base is made from (make-local-base.sh and its settings): its key in the cache.
seekframe_local_base_hash() {
  { sha256sum <"$1/infra/docker/make-local-base.sh"
    printf '%s\n' "${SEEKFRAME_BASE_NODE_VERSION:-20}" "${SEEKFRAME_BASE_NPM_VERSION:-10}" "${SEEKFRAME_DEBIAN_MIRROR:-http://deb.debian.org}"
  } | sha256sum | cut -c1-32
}

# SEEKFRAME_IMAGE_CACHE=<folder>: every image built (and the local base) is also saved there as
# <name>-<inputs hash>.tar, the newest one of each name kept, and loaded from there when the
# engine lacks it: a fresh machine whose CI restores the folder, or one whose engine storage was
# wiped, loads the image instead of building it (minutes of apt and npm). Unset: no cache.
seekframe_cache_prefix() {
  printf '%s/%s-' "$SEEKFRAME_IMAGE_CACHE" "$(printf '%s' "$1" | tr -c 'A-Za-z0-9._\n' '-')"
}
seekframe_cache_file() {
  printf '%s%s.tar' "$(seekframe_cache_prefix "$1")" "$2"
}

# seekframe_cache_load IMAGE HASH: true when the cache had IMAGE built from HASH and the engine has it now.
seekframe_cache_load() {
  [ -n "${SEEKFRAME_IMAGE_CACHE:-}" ] || return 1
  local file
  file="$(seekframe_cache_file "$1" "$2")"
  [ -f "$file" ] || return 1
  echo "$1: loading $file (SEEKFRAME_IMAGE_CACHE)" >&2
  "$ENGINE" load --quiet --input "$file" >/dev/null && "$ENGINE" image inspect "$1" >/dev/null 2>&1
}

# seekframe_cache_save IMAGE HASH: saves IMAGE into the cache (whole, then renamed) and removes its older saves.
seekframe_cache_save() {
  [ -n "${SEEKFRAME_IMAGE_CACHE:-}" ] || return 0
  mkdir -p "$SEEKFRAME_IMAGE_CACHE"
  local file old
  file="$(seekframe_cache_file "$1" "$2")"
  "$ENGINE" save --quiet --format docker-archive --output "$file.partial" "$1" && mv "$file.partial" "$file"
  for old in "$(seekframe_cache_prefix "$1")"*.tar; do
    [ "$old" = "$file" ] || rm -f "$old"
  done
}

# Sets BUILD_ARGS: the base image (seekframe_base_image) and the preferred package versions set
# in the environment (CHROMIUM_VERSION, FFMPEG_VERSION, FONTS_NOTO_CORE_VERSION,
# FONTS_NOTO_COLOR_EMOJI_VERSION), as --build-arg=NAME=value.
seekframe_build_args() {
  local base pin
  base="$(seekframe_base_image "$1")"
  BUILD_ARGS=("--build-arg=BASE_IMAGE=$base")
  for pin in CHROMIUM_VERSION FFMPEG_VERSION FONTS_NOTO_CORE_VERSION FONTS_NOTO_COLOR_EMOJI_VERSION; do
    if [ -n "${!pin:-}" ]; then BUILD_ARGS+=("--build-arg=$pin=${!pin}"); fi
  done
}

# seekframe_inputs_hash DOCKERFILE [build args...] < list of input files (one per line)
# A digest of everything an image is built from: the listed files' contents, the Dockerfile, the
# build arguments and the base image's id. build-image.sh lists the packed workspaces (not the
# staged node_modules), so an unchanged checkout is recognised before anything is installed.
seekframe_inputs_hash() {
  local dockerfile="$1"
  shift
  {
    tr '\n' '\0' | LC_ALL=C sort -z | xargs -0 -r sha256sum | awk '{ print $1 }'
    sha256sum <"$dockerfile"
    printf '%s\n' "$@"
    "$ENGINE" image inspect --format '{{.Id}}' "$(seekframe_build_arg BASE_IMAGE "$@")" 2>/dev/null || true
  } | sha256sum | cut -c1-32
}

# seekframe_up_to_date IMAGE HASH: true when SEEKFRAME_IMAGE_REUSE=1 and IMAGE was built from HASH
# (in the engine, or loaded now from SEEKFRAME_IMAGE_CACHE).
seekframe_up_to_date() {
  [ "${SEEKFRAME_IMAGE_REUSE:-}" = "1" ] || return 1
  seekframe_built_from "$1" "$2" || { seekframe_cache_load "$1" "$2" && seekframe_built_from "$1" "$2"; }
}

seekframe_built_from() {
  [ "$("$ENGINE" image inspect --format '{{index .Config.Labels "seekframe.build-inputs"}}' "$1" 2>/dev/null || true)" = "$2" ]
}

# seekframe_build IMAGE HASH CONTEXT DOCKERFILE [build args...]
# Builds IMAGE, then labels it with the versions apt-install-pinned.sh recorded inside it
# (seekframe.version.<package>, seekframe.version.debian, seekframe.pins) and with
# seekframe.build-inputs=HASH (see seekframe_up_to_date).
seekframe_build() {
  local image="$1" inputs="$2" context="$3" dockerfile="$4"
  shift 4
  "$ENGINE" build --tag "$image" --file "$dockerfile" "$@" "$context"
  local versions labels=() empty
  versions="$("$ENGINE" run --rm --network none --entrypoint cat "$image" /usr/share/seekframe/image-versions.json)"
  mapfile -t labels < <(node -e '
    const v = JSON.parse(require("fs").readFileSync(0, "utf8"));
    for (const [name, p] of Object.entries(v.packages)) console.log(`--label=seekframe.version.${name}=${p.version}`);
    console.log(`--label=seekframe.version.debian=${v.debian}`);
    console.log(`--label=seekframe.pins=${v.fallbacks.length ? `current instead of ${v.fallbacks.join(" ")}` : "preferred"}`);
  ' <<<"$versions")
  # Labels go on in a second, instant build: they are known only once the packages are installed.
  empty="$(mktemp -d)"
  printf 'FROM %s\n' "$image" | "$ENGINE" build --quiet --tag "$image" "${labels[@]}" --label "seekframe.build-inputs=$inputs" --file - "$empty" >/dev/null
  rmdir "$empty"
  echo "$image: ${labels[*]#--label=seekframe.}" >&2
  seekframe_cache_save "$image" "$inputs"
}

# The value of `--build-arg=NAME=value` among the arguments (empty when not given).
seekframe_build_arg() {
  local name="$1" arg
  shift
  for arg in "$@"; do
    case "$arg" in --build-arg="$name"=*) echo "${arg#--build-arg="$name"=}" ;; esac
  done
}
