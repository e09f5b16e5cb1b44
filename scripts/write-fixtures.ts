/**
 * Writes fixtures/default.json and fixtures/empty.json from the generator, so the committed
 * fixtures are reproducible: `npm run fixtures`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { DEFAULT_MANUAL_START } from '../src/domain/clock.js';
import { DEFAULT_FIXTURE_OPTIONS, defaultSandboxSpecs, generateFixture } from '../src/domain/generate.js';
import { Fixture } from '../src/schemas/records.js';

const write = async (name: string, data: unknown) => {
  Fixture.parse(data);
  await writeFile(new URL(`../fixtures/${name}.json`, import.meta.url), `${JSON.stringify(data, null, 2)}\n`);
  console.log(`wrote fixtures/${name}.json`);
};

await write('default', generateFixture(DEFAULT_FIXTURE_OPTIONS));
await write('empty', {
  relative_to: DEFAULT_MANUAL_START,
  sandbox_specs: defaultSandboxSpecs('2025-10-01T00:00:00.000000Z').slice(0, 1),
  sandboxes: [], conversations: [], start_tasks: [], provider_tokens: {}, mcp_config: null, settings: null, secrets: [],
});


// The same fixtures, bundled for the browser (no file system there): src/browser/fixtures.generated.ts.
const bundled: Record<string, string> = {};
for (const name of ['default', 'empty']) bundled[name] = JSON.stringify(JSON.parse(await readFile(new URL(`../fixtures/${name}.json`, import.meta.url), 'utf8')));
await writeFile(new URL('../src/browser/fixtures.generated.ts', import.meta.url), [
  '/** The built-in fixtures, bundled for the browser (written by `npm run fixtures` from fixtures/*.json; do not edit). */',
  `export const BUNDLED_FIXTURES: Readonly<Record<string, string>> = ${JSON.stringify(bundled)};`,
  '/** The version of fakehands these were bundled with. */',
  `export const PACKAGE_VERSION = ${JSON.stringify((JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version)};`,
  '',
].join('\n'));
console.log('wrote src/browser/fixtures.generated.ts');
