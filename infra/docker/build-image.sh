#!/usr/bin/env bash
# Builds the image `seekframe render --docker` runs: packs every workspace of this checkout into
# infra/docker/packs/, then `docker build` with infra/docker as the context.
#   bash infra/docker/build-image.sh [image]     default seekframe/render:<CLI version>
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
VERSION="$(node -p "require('./core/cli/package.json').version")"
IMAGE="${1:-${SEEKFRAME_DOCKER_IMAGE:-seekframe/render:$VERSION}}"
PACKS="$ROOT/infra/docker/packs"

command -v docker >/dev/null 2>&1 || { echo "build-image: docker is not installed (https://docs.docker.com/engine/install/)" >&2; exit 1; }

npm run build --silent
rm -rf "$PACKS"
mkdir -p "$PACKS"
for workspace in composition runtime engine player producer cli; do
  npm pack --silent --workspace "core/$workspace" --pack-destination "$PACKS" >/dev/null
done
docker build -t "$IMAGE" "$ROOT/infra/docker"
echo "built $IMAGE"
