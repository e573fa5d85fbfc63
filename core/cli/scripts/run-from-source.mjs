// Runs the Seekframe CLI of this checkout from its TypeScript sources, without a build:
//   node --import <tsx loader> --conditions=source core/cli/scripts/run-from-source.mjs render ...
// Tests start it this way so a stale dist/ never renders their reference.
import { main } from 'seekframe';

process.exitCode = await main(process.argv);
