import { describe, expect, it } from 'vitest';
import { SANDBOX_CHROMIUM_PACKAGE, vercelRecipe, VERCEL_SANDBOX_IMAGE } from './sandbox-recipe.js';

describe('vercelRecipe', () => {
  const recipe = vercelRecipe(async () => [{ fileName: 'seekframe-0.1.0.tgz', content: new Uint8Array([1, 2, 3]) }]);

  it('pins the Ubuntu image and installs with apt as root', () => {
    expect(recipe.image).toBe('vercel/sandbox/universal');
    expect(VERCEL_SANDBOX_IMAGE).not.toMatch(/node|runtime/);
    const apt = recipe.steps.filter((step) => step.sudo);
    expect(apt.map((step) => [step.cmd, ...step.args].join(' ')).join('\n')).toMatch(
      /apt-get install -y --no-install-recommends ffmpeg fonts-noto-core/,
    );
  });

  it("installs this checkout's CLI tarballs with Chromium 147, and renders with that Chromium", async () => {
    expect(await recipe.files()).toEqual([
      { path: '/vercel/sandbox/seekframe-cli/packages/seekframe-0.1.0.tgz', content: new Uint8Array([1, 2, 3]) },
    ]);
    const install = recipe.steps.find((step) => step.args.join(' ').includes('npm install'));
    expect(install?.args.join(' ')).toContain(`./packages/*.tgz ${SANDBOX_CHROMIUM_PACKAGE} gsap@3.15.0`);
    expect(SANDBOX_CHROMIUM_PACKAGE).toBe('@sparticuz/chromium@147.0.0');
    const unpack = recipe.steps.find((step) => step.title.startsWith('unpack Chromium'));
    // Unpacked into a folder the snapshot keeps (not /tmp), where SEEKFRAME_BROWSER points.
    expect(unpack?.args.join(' ')).toContain('TMPDIR=/vercel/sandbox/chromium');
    expect(recipe.env.SEEKFRAME_BROWSER).toBe('/vercel/sandbox/chromium/chromium');
    expect(recipe.seekframe.cmd).toBe('/vercel/sandbox/seekframe-cli/node_modules/.bin/seekframe');
  });
});
