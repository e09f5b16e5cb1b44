/**
 * A custom secret for a fixture: a builder of its own, so loading the package (`fakehands`) does not load the
 * secrets' operations (they write provider tokens through @msw/data, whose es-toolkit helpers are
 * about 550 modules under ESM: the package's import cost, BENCHMARKS "Import cost").
 */
import type { CustomSecretRecord } from '../../schemas/user-secrets.js';

/**
 * A custom secret for a fixture.
 * @example
 * customSecret('NPM_TOKEN', 'npm_xxx', 'Publishes the packages')
 */
export function customSecret(name: string, value: string, description: string | null = null): CustomSecretRecord {
  return { name, value, description };
}
