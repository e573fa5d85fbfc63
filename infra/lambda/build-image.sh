#!/usr/bin/env bash
# Builds the image of the Lambda functions, with Docker or podman: the render image first
# (infra/docker/build-image.sh), then infra/lambda/Dockerfile FROM it with @seekframe/aws-lambda
# installed. sst.config.ts pushes the result to ECR and points the functions at it.
#   bash infra/lambda/build-image.sh [image]     default seekframe/lambda:<version>
# Environment: as infra/docker/build-image.sh; SEEKFRAME_RENDER_IMAGE names a render image to use as
# it is (default: seekframe/render:<version>, built or brought up to date first).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
# shellcheck source=../docker/image-lib.sh
. "$ROOT/infra/docker/image-lib.sh"
seekframe_engine "$ROOT"

VERSION="$(node -p "require('./adapters/aws-lambda/package.json').version")"
IMAGE="${1:-seekframe/lambda:$VERSION}"
RENDER_IMAGE="${SEEKFRAME_RENDER_IMAGE:-$(printf '%s' "$IMAGE" | sed -E 's#lambda(:[^/]*)?$#render\1#')}"
CONTEXT="$ROOT/infra/lambda"
PACKS="$(mktemp -d)"
trap 'rm -rf "$PACKS"' EXIT

if [ -z "${SEEKFRAME_RENDER_IMAGE:-}" ] || ! "$ENGINE" image inspect "$RENDER_IMAGE" >/dev/null 2>&1; then
  bash "$ROOT/infra/docker/build-image.sh" "$RENDER_IMAGE"
fi
# render-api: the API function is the render API app; the player is one of its dependencies.
seekframe_pack_workspaces "$PACKS" core/composition core/runtime core/engine core/player core/producer adapters/render-api adapters/s3-storage adapters/aws-lambda
node "$ROOT/infra/docker/stage-packages.mjs" "$CONTEXT/app" "$PACKS"/*.tgz
args=("--build-arg=RENDER_IMAGE=$RENDER_IMAGE")
inputs="$(printf '%s\n' "$CONTEXT/app/staged-from.txt" | seekframe_inputs_hash "$CONTEXT/Dockerfile" "${args[@]}" "$("$ENGINE" image inspect --format '{{.Id}}' "$RENDER_IMAGE")")"
if seekframe_up_to_date "$IMAGE" "$inputs"; then
  echo "$IMAGE is up to date (built from the same inputs)"
  exit 0
fi
seekframe_build "$IMAGE" "$inputs" "$CONTEXT" "$CONTEXT/Dockerfile" "${args[@]}"
echo "built $IMAGE"
