#!/usr/bin/env bash
# Builds the image `seekframe render --docker` runs, with Docker or podman: packs the workspaces
# of this checkout and installs them with their dependencies into infra/docker/app/, then builds infra/docker/Dockerfile on the official
# Node 20 bookworm image, or, when no registry is reachable, on one made from Debian's packages.
#   bash infra/docker/build-image.sh [image]     default seekframe/render:<CLI version>
# Environment (see infra/docker/image-lib.sh):
#   SEEKFRAME_CONTAINER_CLI    docker | podman (default: docker when its engine answers, else podman)
#   SEEKFRAME_BASE_IMAGE       the base to build FROM (default: see above)
#   SEEKFRAME_IMAGE_REUSE=1    keep an image already built from the same inputs
#   SEEKFRAME_IMAGE_CACHE      a folder to save built images in and load them from (image-lib.sh)
#   CHROMIUM_VERSION, FFMPEG_VERSION, FONTS_NOTO_CORE_VERSION, FONTS_NOTO_COLOR_EMOJI_VERSION
#                              preferred package versions instead of the Dockerfile's
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
# shellcheck source=image-lib.sh
. "$ROOT/infra/docker/image-lib.sh"
seekframe_engine "$ROOT"

VERSION="$(node -p "require('./core/cli/package.json').version")"
IMAGE="${1:-${SEEKFRAME_DOCKER_IMAGE:-seekframe/render:$VERSION}}"
CONTEXT="$ROOT/infra/docker"
PACKS="$(mktemp -d)"
trap 'rm -rf "$PACKS"' EXIT

# The fleet's packages ride along (the render API, the S3 store, BullMQ), so the same image runs
# `seekframe worker` and `seekframe serve --queue` (infra/fleet/compose.yaml).
seekframe_pack_workspaces "$PACKS" core/composition core/runtime core/engine core/player core/producer core/cli \
  adapters/render-api adapters/s3-storage adapters/redis-fleet

seekframe_build_args "$ROOT"
# Installed here, with the animation libraries compositions load from npm CDNs (stage-packages.mjs);
# kept when the packs did not change.
node "$CONTEXT/stage-packages.mjs" --page-libraries "$CONTEXT/app" "$PACKS"/*.tgz
inputs="$(printf '%s\n' "$CONTEXT/app/staged-from.txt" "$CONTEXT/apt-install-pinned.sh" | seekframe_inputs_hash "$CONTEXT/Dockerfile" "${BUILD_ARGS[@]}")"
if seekframe_up_to_date "$IMAGE" "$inputs"; then
  echo "$IMAGE is up to date (built from the same inputs)"
  exit 0
fi
seekframe_build "$IMAGE" "$inputs" "$CONTEXT" "$CONTEXT/Dockerfile" "${BUILD_ARGS[@]}"
echo "built $IMAGE"
