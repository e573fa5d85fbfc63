// Packs the given workspace folders into a folder exactly as they are published (the manifest
// without the `source` condition and the prepack refusal), for the image builds that install this
// checkout's code (infra/docker/image-lib.sh, seekframe_pack_workspaces):
//   tsx tools/registry/src/pack-workspaces.ts <dest> core/composition core/runtime ...
import path from 'node:path';
import { packPackages } from './pack-package.js';
import { listWorkspaces } from './public-packages.js';

const [dest, ...folders] = process.argv.slice(2);
if (!dest || folders.length === 0) {
  console.error('usage: pack-workspaces.ts <dest folder> <workspace folder>... (e.g. core/composition)');
  process.exit(2);
}
const workspaces = await listWorkspaces();
const wanted = folders.map((folder) => {
  const relative = folder.replace(/\/+$/, '');
  const found = workspaces.find((workspace) => workspace.relativeDir === relative);
  if (!found) {
    console.error(`pack-workspaces: ${folder} is not a workspace of this repository (${workspaces.map((w) => w.relativeDir).join(', ')})`);
    process.exit(2);
  }
  return found;
});
await packPackages(wanted, path.resolve(dest));
