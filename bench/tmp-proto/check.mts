import { checkComposition } from '@seekframe/producer';
import { tempProject } from '../../core/producer/test/helpers/temp-project.js';
import { CHECK_PROJECTS } from '../../core/producer/test/helpers/check-projects.js';
const name = process.argv[2] as keyof typeof CHECK_PROJECTS;
const p = await tempProject(CHECK_PROJECTS[name]);
const r = await checkComposition({ projectDir: p.dir, cwd: p.dir, format: (process.argv[3] ?? 'mp4') as 'mp4' });
console.log(JSON.stringify(r, null, 1));
await p.cleanup();
