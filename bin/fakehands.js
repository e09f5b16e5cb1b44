#!/usr/bin/env node
// The fakehands command, run from the bundled JavaScript in dist/ (built by `npm run build`, which `prepare` runs on install).
import { main } from '../dist/cli.bundle.js';

await main(process.argv.slice(2));
