#!/usr/bin/env node
// The fakehands command, run from the compiled JavaScript in dist/ (built by `npm run build`, which `prepare` runs on install).
import { main } from '../dist/cli.js';

await main(process.argv.slice(2));
