/**
 * Writes contracts/ from the consumer tests of the typed client, from scratch: `npm run contracts`.
 * The test suite writes the same contracts into a temporary folder and fails when they differ
 * from the committed ones, so a change to a contract is always a deliberate, committed one.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CONTRACTS_DIR } from '../src/pact/verify.js';
import { writeContracts } from '../test/contract/consumer.js';

process.env.PACT_DO_NOT_TRACK = 'true';
for (const file of await readdir(CONTRACTS_DIR)) {
  if (file.endsWith('.json')) await rm(join(CONTRACTS_DIR, file));
}
const written = await writeContracts(CONTRACTS_DIR);
console.log(`wrote ${written} interactions to contracts/`);
