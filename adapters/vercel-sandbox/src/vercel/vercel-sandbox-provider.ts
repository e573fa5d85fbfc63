import { Sandbox } from '@vercel/sandbox';
import type { SandboxLike, SandboxProvider } from '../sandbox-port.js';
import type { SandboxCredentials } from './vercel-credentials.js';

/**
 * Sandboxes from the Vercel API. The image is always given (never the SDK default, which has
 * changed OS family before); a snapshot restore must name neither image nor runtime.
 */
export function createVercelSandboxProvider(credentials: SandboxCredentials | null): SandboxProvider {
  const auth = credentials ?? {};
  return {
    async create(options): Promise<SandboxLike> {
      return Sandbox.create({
        image: options.image,
        resources: { vcpus: options.vcpus },
        timeout: options.timeoutMs,
        ...(options.env ? { env: options.env } : {}),
        ...auth,
      });
    },
    async createFromSnapshot(options): Promise<SandboxLike> {
      return Sandbox.create({
        source: { type: 'snapshot', snapshotId: options.snapshotId },
        resources: { vcpus: options.vcpus },
        timeout: options.timeoutMs,
        ...(options.env ? { env: options.env } : {}),
        ...auth,
      });
    },
    async get(name): Promise<SandboxLike | null> {
      try {
        return await Sandbox.get({ name, ...auth });
      } catch {
        return null;
      }
    },
  };
}
