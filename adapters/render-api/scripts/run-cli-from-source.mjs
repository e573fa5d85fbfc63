// Runs the Seekframe CLI from its TypeScript sources (node --import tsx --conditions=source).
import { main } from 'seekframe';

process.exitCode = await main(process.argv);
