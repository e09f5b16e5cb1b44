/**
 * `generateFixture`: realistic, repeatable data sets, their words and picks made by faker (the
 * English-only build; loading every locale costs ~100 ms), seeded per call. The generator itself is
 * `generate-core.ts`, which a page runs without faker.
 */
import { faker } from '@faker-js/faker/locale/en';
import type { FixtureInput } from '../schemas/fixture.js';
import { generateWith, type Chooser, type GenerateOptions } from './generate-core.js';
import { defaultUserSettings } from './user-settings.js';

export { DEFAULT_FIXTURE_OPTIONS, defaultSandboxSpecs, type Chooser, type GenerateOptions } from './generate-core.js';

/** faker's choices, seeded with `seed`. */
export function fakerChooser(seed: number): Chooser {
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
