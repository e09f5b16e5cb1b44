/**
 * Writes fixtures/default.json and fixtures/empty.json from the generator, so the committed
 * fixtures are reproducible: `npm run fixtures`. And what a page needs to have them without a file
 * system (src/browser/fixtures.generated.ts): for the default fixture, what faker chose while
 * generating it and the user settings, so that a page generates the same records
 * (`browser/default-fixture.ts`) instead of downloading them; the empty one is generated as it is.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { DEFAULT_FIXTURE_OPTIONS, fakerChooser, generateFixture } from '../src/domain/fixtures/generate.js';
import { emptyFixture, generateWith, type Chooser } from '../src/domain/fixtures/generate-core.js';
import { defaultUserSettings } from '../src/domain/user/settings.js';
import { Fixture } from '../src/schemas/fixture.js';

const write = async (name: string, data: unknown) => {
  Fixture.parse(data);
  await writeFile(new URL(`../fixtures/${name}.json`, import.meta.url), `${JSON.stringify(data, null, 2)}\n`);
  console.log(`wrote fixtures/${name}.json`);
};

await write('default', generateFixture(DEFAULT_FIXTURE_OPTIONS));
await write('empty', emptyFixture());

/** faker's choices for the default fixture, recorded: an index for each pick, the word for each word. */
const draws: (number | string)[] = [];
const faker = fakerChooser(DEFAULT_FIXTURE_OPTIONS.seed ?? 1);
const kept = (word: string): string => (draws.push(word), word);
const recording: Chooser = {
  pick: (list) => {
    const item = faker.pick(list);
    draws.push(list.indexOf(item));
    return item;
  },
  noun: () => kept(faker.noun()),
  ingverb: () => kept(faker.ingverb()),
};
generateWith(DEFAULT_FIXTURE_OPTIONS, recording, defaultUserSettings());

const version = (JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
await writeFile(
  new URL('../src/browser/fixtures.generated.ts', import.meta.url),
  [
    '/** What a page needs to have the built-in fixtures (written by `npm run fixtures`; do not edit). */',
    "import type { UserSettingsRecord } from '../schemas/user-settings.js';",
    '',
    '/** What faker chose while generating the default fixture: an index for each pick, the word for each word. */',
    `export const DEFAULT_FIXTURE_DRAWS: readonly (number | string)[] = ${JSON.stringify(draws)};`,
    '/** The user settings of the default fixture, in their parsed form. */',
    `export const DEFAULT_FIXTURE_SETTINGS: UserSettingsRecord = ${JSON.stringify(defaultUserSettings())};`,
    '/** The version of fakehands these were written with. */',
    `export const PACKAGE_VERSION = ${JSON.stringify(version)};`,
    '',
  ].join('\n'),
);
console.log('wrote src/browser/fixtures.generated.ts');
