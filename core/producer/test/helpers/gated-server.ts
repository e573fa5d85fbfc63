import { afterAll, beforeAll } from 'vitest';
import { createProducerServer, type ProducerServer } from '../../src/index.js';
import { gatedComposition, tinyComposition } from './server-client.js';
import { tempProject } from './temp-project.js';

export interface GatedServerFixture {
  /** The temp project root: `tiny/` plus one gated composition per name. */
  readonly project: Awaited<ReturnType<typeof tempProject>>;
  /** A producer server on that root with one render slot. */
  readonly server: ProducerServer;
}

/**
 * Registers beforeAll/afterAll that build a temp project holding `tiny/` and a gated composition
 * under each of `gatedNames`, and start a producer server (maxConcurrentRenders 1) on it.
 */
export function useGatedServer(gatedNames: string[]): GatedServerFixture {
  const files: Record<string, string> = { 'tiny/index.html': tinyComposition() };
  for (const name of gatedNames) {
    for (const [file, text] of Object.entries(gatedComposition())) files[`${name}/${file}`] = text;
  }
  let project: GatedServerFixture['project'] | undefined;
  let server: ProducerServer | undefined;
  beforeAll(async () => {
    project = await tempProject(files);
    server = await createProducerServer({ port: 0, root: project.dir, maxConcurrentRenders: 1, env: {} });
  });
  afterAll(async () => {
    await server?.close();
    await project?.cleanup();
  });
  return {
    get project() {
      if (!project) throw new Error('useGatedServer: project used before beforeAll ran');
      return project;
    },
    get server() {
      if (!server) throw new Error('useGatedServer: server used before beforeAll ran');
      return server;
    },
  };
}
