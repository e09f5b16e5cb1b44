/**
 * Writes fixtures/default.json and fixtures/empty.json from the generator, so the committed
 * fixtures are reproducible: `npm run fixtures`. And what a page needs to have them without a file
 * system (src/browser/fixtures.generated.ts): the empty fixture in its parsed form, and for the
 * default one, what faker chose while generating it and the user settings, so that a page
 * generates the same records (`browser/default-fixture.ts`) instead of downloading them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { DEFAULT_MANUAL_START } from '../src/domain/clock.js';
import { DEFAULT_FIXTURE_OPTIONS, defaultSandboxSpecs, fakerChooser, generateFixture } from '../src/domain/generate.js';
import { generateWith, type Chooser } from '../src/domain/generate-core.js';
import { defaultUserSettings } from '../src/domain/user-settings.js';
import { canonicalDateTime } from '../src/schemas/datetime.js';
import { Fixture } from '../src/schemas/fixture.js';

const write = async (name: string, data: unknown) => {
  Fixture.parse(data);
  await writeFile(new URL(`../fixtures/${name}.json`, import.meta.url), `${JSON.stringify(data, null, 2)}\n`);
  console.log(`wrote fixtures/${name}.json`);
};

await write('default', generateFixture(DEFAULT_FIXTURE_OPTIONS));
await write('empty', {
  relative_to: canonicalDateTime(DEFAULT_MANUAL_START),
  sandbox_specs: defaultSandboxSpecs('2025-10-01T00:00:00.000000Z').slice(0, 1),
  sandboxes: [], conversations: [], start_tasks: [], events: [], provider_tokens: {}, mcp_config: null, settings: null, secrets: [],
});

/** faker's choices for the default fixture, recorded: an index for each pick, the word for each word. */
const draws: (number | string)[] = [];
const faker = fakerChooser(DEFAULT_FIXTURE_OPTIONS.seed ?? 1);
const recording: Chooser = {
  pick: (list) => {
    const item = faker.pick(list);
    draws.push(list.indexOf(item));
    return item;
  },
  noun: () => {
    const word = faker.noun();
    draws.push(word);
    return word;
  },
  ingverb: () => {
    const word = faker.ingverb();
    draws.push(word);
    return word;
  },
};
generateWith(DEFAULT_FIXTURE_OPTIONS, recording, defaultUserSettings());

const empty = JSON.stringify(Fixture.parse(JSON.parse(await readFile(new URL('../fixtures/empty.json', import.meta.url), 'utf8'))));
const version = (JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
await writeFile(new URL('../src/browser/fixtures.generated.ts', import.meta.url), [
  '/** What a page needs to have the built-in fixtures (written by `npm run fixtures`; do not edit). */',
  "import type { UserSettingsRecord } from '../schemas/user-settings.js';",
  '',
  '/** The built-in fixtures bundled as they are, in their parsed form (the default one is generated in the page). */',
  `export const BUNDLED_FIXTURES: Readonly<Record<string, string>> = ${JSON.stringify({ empty })};`,
  '/** What faker chose while generating the default fixture: an index for each pick, the word for each word. */',
  `export const DEFAULT_FIXTURE_DRAWS: readonly (number | string)[] = ${JSON.stringify(draws)};`,
  '/** The user settings of the default fixture, in their parsed form. */',
  `export const DEFAULT_FIXTURE_SETTINGS: UserSettingsRecord = ${JSON.stringify(defaultUserSettings())};`,
  '/** The version of fakehands these were written with. */',
  `export const PACKAGE_VERSION = ${JSON.stringify(version)};`,
  '',
].join('\n'));
console.log('wrote src/browser/fixtures.generated.ts');
