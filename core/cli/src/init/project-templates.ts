import { fileURLToPath } from 'node:url';

/** The deploy templates `seekframe init --template` writes (apps/<name> of the Seekframe repository). */
export const DEPLOY_TEMPLATES = ['modal-function', 'vercel-sandbox', 'cloudflare-container'] as const;
export type DeployTemplate = (typeof DEPLOY_TEMPLATES)[number];
export const PROJECT_TEMPLATES = ['starter', ...DEPLOY_TEMPLATES] as const;
export type ProjectTemplate = (typeof PROJECT_TEMPLATES)[number];

/** Shipped with the package (package.json `files`); from src/init and dist/init alike. */
export const STARTER_TEMPLATE_DIR = fileURLToPath(new URL('../../templates/starter/', import.meta.url));
/** Built by scripts/build-deploy-templates.mjs (`npm run build`) from the repository's apps/. */
export const DEPLOY_TEMPLATES_DIR = fileURLToPath(new URL('../../dist/templates/', import.meta.url));

/**
 * Libraries the starter's composition loads, installed as the project's own dependencies. Its
 * index.html takes them from node_modules (`node_modules/gsap/dist/gsap.min.js`), which
 * `seekframe render` and `seekframe preview` serve from the installed package: nothing is fetched
 * from a CDN. The README names the version (`{{gsapVersion}}`).
 */
export const STARTER_LIBRARIES = { gsap: '3.15.0' } as const;

export function isProjectTemplate(name: string): name is ProjectTemplate {
  return (PROJECT_TEMPLATES as readonly string[]).includes(name);
}

/** What a user runs after `seekframe init`, per template (printed, and the README says more). */
export function nextSteps(template: ProjectTemplate, dir: string, name: string): string[] {
  const steps = [`cd ${dir}`, 'npm install'];
  switch (template) {
    case 'starter':
      return [
        ...steps,
        'npx seekframe lint .                     # check the composition',
        'npx seekframe preview .                  # play it in the browser',
        `npx seekframe render . --output renders/${name}.mp4`,
      ];
    case 'modal-function':
      return [
        ...steps,
        'npm run dev                              # the app on this machine: http://127.0.0.1:8000',
        'modal deploy src/app.py                  # deploy (pip install modal && modal setup first)',
      ];
    case 'vercel-sandbox':
      return [
        ...steps,
        'npm run dev                              # the app on this machine: http://127.0.0.1:3000',
        'npx vercel deploy                        # deploy (or push to GitHub and import the repository in Vercel)',
      ];
    case 'cloudflare-container':
      return [
        ...steps,
        'npm run dev                              # the app on this machine: http://127.0.0.1:8787',
        'npx wrangler deploy                      # deploy (builds the container image with Docker)',
      ];
  }
}
