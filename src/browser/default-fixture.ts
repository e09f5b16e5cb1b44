/**
 * The built-in fixtures, made in the page. The default one: the generator without faker
 * (`generate-core.ts`), replaying what faker chose when the package was built. The same records as
 * fixtures/default.json, in their parsed form, for a fraction of its bytes (issue 23).
 */
import { DEFAULT_FIXTURE_OPTIONS, emptyFixture, generateWith, type Chooser } from '../domain/fixtures/generate-core.js';
import type { FixtureInput } from '../schemas/fixture.js';
import { DEFAULT_FIXTURE_DRAWS, DEFAULT_FIXTURE_SETTINGS } from './fixtures.generated.js';

/** A chooser that hands out `draws` in order; throws when they do not match what is asked (a stale recording). */
export function replayChooser(draws: readonly (number | string)[]): Chooser {
  let next = 0;
  const stale = () =>
    new Error(
      `fakehands: the recorded choices of the default fixture do not match its generator at draw ${next - 1} (run npm run fixtures)`,
    );
  const word = (): string => {
    const value = draws[next++];
    if (typeof value !== 'string') throw stale();
    return value;
  };
  return {
    pick: (list) => {
      const index = draws[next++];
      if (typeof index !== 'number' || !(index in list)) throw stale();
      return list[index]!;
    },
    noun: word,
    ingverb: word,
  };
}

/** The default fixture, as fixtures/default.json holds it (parsed form). */
export function defaultFixture(): FixtureInput {
  return generateWith(DEFAULT_FIXTURE_OPTIONS, replayChooser(DEFAULT_FIXTURE_DRAWS), structuredClone(DEFAULT_FIXTURE_SETTINGS));
}

/** The built-in fixtures a page has, by name, each made anew when asked (parsed form). */
export const BUILT_IN_PAGE_FIXTURES: Readonly<Record<string, () => FixtureInput>> = Object.freeze({
  default: defaultFixture,
  empty: emptyFixture,
});
