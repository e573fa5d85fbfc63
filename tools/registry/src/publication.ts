/**
 * Whether Seekframe's packages are on the public npm registry. The README and Getting started say
 * what a user can install from where, and tools/registry/test/readme-install.test.ts holds them to
 * this: while it is false they must say that `npx seekframe init` answers 404 and give the
 * tarball route, which the test runs. Set it to true in the change that follows the first
 * `npm run release` to registry.npmjs.org, together with the README.
 */
export const PUBLISHED_TO_NPM = false;
