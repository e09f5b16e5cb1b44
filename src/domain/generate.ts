/**
 * `generateFixture`: realistic, repeatable data sets, their words and picks made by faker (the
 * English-only build; loading every locale costs ~100 ms), seeded per call. The generator itself is
 * `generate-core.ts`, which a page runs without faker.
 */
import { createRequire } from 'node:module';
import type { FixtureInput } from '../schemas/fixture.js';
import { generateWith, type Chooser, type GenerateOptions } from './generate-core.js';
import { defaultUserSettings } from './user-settings.js';

export { DEFAULT_FIXTURE_OPTIONS, defaultSandboxSpecs, type Chooser, type GenerateOptions } from './generate-core.js';

/**
 * faker, loaded on the first data set generated, not with fakehands: most test files never
 * generate one, and loading it costs 0.15-0.25 s. (Node 20.19+ requires an ES module synchronously.)
 */
let loaded: typeof import('@faker-js/faker/locale/en').faker | undefined;
const loadFaker = () => (loaded ??= (createRequire(import.meta.url)('@faker-js/faker/locale/en') as typeof import('@faker-js/faker/locale/en')).faker);

/** faker's choices, seeded with `seed`. */
export function fakerChooser(seed: number): Chooser {
  const faker = loadFaker();
  faker.seed(seed);
  return {
    pick: (list) => faker.helpers.arrayElement(list),
    noun: () => faker.hacker.noun(),
    ingverb: () => faker.hacker.ingverb(),
  };
}

/**
 * A realistic, repeatable data set: `n` conversations (V0 and V1, every trigger) on real-looking
 * repositories, each powered by its own sandbox in a mix of statuses. For scale tests and fixtures.
 * @example
 * const fixture = generateFixture({ conversations: 10_000, seed: 7 })
 * const fake = await createFake({ fixture })
 */
export function generateFixture(options: GenerateOptions): FixtureInput {
  return generateWith(options, fakerChooser(options.seed ?? 1), defaultUserSettings());
}
