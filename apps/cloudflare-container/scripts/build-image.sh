#!/usr/bin/env bash
# Builds the template's container image with Docker or podman, as `wrangler deploy` would with
# Docker: scripts/build.mjs fills dist/container/, then ./Dockerfile is built on the official Node
# 20 bookworm image or, when no registry is reachable, on one made from Debian's packages.
#   npm run build:image -w @seekframe/app-cloudflare-container [-- image]
#                                 default seekframe/cloudflare-container:<version>
# Environment: as infra/docker/build-image.sh (SEEKFRAME_CONTAINER_CLI, SEEKFRAME_BASE_IMAGE,
# SEEKFRAME_IMAGE_REUSE, CHROMIUM_VERSION and the other preferred versions), and
# PREVIEW_COMPOSITION_DIR (scripts/build.mjs).
set -euo pipefail

APP="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$APP/../.." && pwd)"
cd "$APP"
# shellcheck source=../../../infra/docker/image-lib.sh
. "$ROOT/infra/docker/image-lib.sh"
seekframe_engine "$ROOT"

VERSION="$(node -p "require('./package.json').version")"
IMAGE="${1:-seekframe/cloudflare-container:$VERSION}"

(cd "$ROOT" && npm run build --silent >/dev/null)
node scripts/build.mjs

seekframe_build_args "$ROOT"
inputs="$(find dist/container -path dist/container/app/node_modules -prune -o -path dist/container/packs -prune -o -type f -print | seekframe_inputs_hash Dockerfile "${BUILD_ARGS[@]}")"
if seekframe_up_to_date "$IMAGE" "$inputs"; then
  echo "$IMAGE is up to date (built from the same inputs)"
  exit 0
fi
seekframe_build "$IMAGE" "$inputs" "$APP" "$APP/Dockerfile" "${BUILD_ARGS[@]}"
echo "built $IMAGE"
