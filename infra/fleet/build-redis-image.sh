#!/usr/bin/env bash
# Builds the fleet's Redis image (redis.Dockerfile: redis-server from Debian's packages) with
# Docker or podman, on the same base as the render image (infra/docker/image-lib.sh), so it
# builds where no registry is reachable. `docker compose -f infra/fleet/compose.yaml build`
# does the same with the official Debian image.
#   bash infra/fleet/build-redis-image.sh [image]     default localhost/seekframe/fleet-redis:7-debian
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
# shellcheck source=../docker/image-lib.sh
. "$ROOT/infra/docker/image-lib.sh"
seekframe_engine "$ROOT"

IMAGE="${1:-localhost/seekframe/fleet-redis:7-debian}"
BASE="$(seekframe_base_image "$ROOT")"
"$ENGINE" build --tag "$IMAGE" --build-arg "BASE_IMAGE=$BASE" --file "$ROOT/infra/fleet/redis.Dockerfile" "$ROOT/infra/fleet"
echo "built $IMAGE"
