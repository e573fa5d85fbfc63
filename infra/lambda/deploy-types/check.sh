#!/usr/bin/env bash
# Type-checks infra/lambda/render-functions.ts (what sst.config.ts calls to declare the
# container-image functions) against the Pulumi SDKs SST deploys with. sst.config.ts itself is typed
# by .sst/platform, which only the SST CLI generates (it downloads Pulumi: not possible offline).
# The SDKs (~80 MB) are installed into this folder only, never into the workspace.
#   bash infra/lambda/deploy-types/check.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
npm install --no-audit --no-fund --loglevel=error --no-package-lock >/dev/null
npx --no-install tsc -p tsconfig.json
echo "infra/lambda/render-functions.ts type-checks against @pulumi/aws $(node -p "require('@pulumi/aws/package.json').version") and @pulumi/docker-build $(node -p "require('@pulumi/docker-build/package.json').version")"
