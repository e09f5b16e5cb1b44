/**
 * The fake without any transport, on Node: fixtures read from the file system (the built-in ones
 * from the package), the version from its package.json. What the standalone server runs; it loads
 * no msw and no faker, so the server starts fast. `createFake` in index.ts adds the msw handlers.
 */
import { fixtureError } from './domain/store/errors.js';
import { createCore, type Environment, type FakeCore } from './core.js';
import { packageFile, packageVersion } from './package-root.js';
import { loadDomain } from './service-facade.js';
import type { FakeOptionsInput } from './options.js';
import { BUILT_IN_FIXTURES } from './schemas/faults.js';
import type { FixtureInput } from './schemas/fixture.js';

export { BUILT_IN_FIXTURES, type Environment, type FakeCore, type FixtureOption, type ResetOptions } from './core.js';

/** The built-in fixtures once read: the same parsed object each time, so a load after the first skips validation (fixtures.ts keeps what it validated). */
const builtInCache = new Map<string, unknown>();

/** Reads a fixture given by name (a built-in one) or by path. */
async function readFixture(fixture: string): Promise<{ data: unknown; source: string }> {
  const { readFile } = await import('node:fs/promises');
  const builtIn = (BUILT_IN_FIXTURES as readonly string[]).includes(fixture);
  if (builtIn && builtInCache.has(fixture)) return { data: builtInCache.get(fixture), source: `"${fixture}"` };
  const location = builtIn ? packageFile(`fixtures/${fixture}.json`) : fixture;
  const source = builtIn ? `"${fixture}"` : `at ${fixture}`;
  let text: string;
  try {
    text = await readFile(location, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw fixtureError(source, `${reason} (a fixture is "default", "empty", or a path to a JSON file)`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw fixtureError(source, `not valid JSON: ${(error as Error).message}`);
  }
  if (builtIn) builtInCache.set(fixture, data);
  return { data, source };
}

/** Largest fixture file the control API loads by name. */
const MAX_NAMED_FIXTURE_BYTES = 64 * 1024 * 1024;

/**
 * Reads `NAME.json` of the fixtures directory for the control API: a regular file (no link, no
 * FIFO, no device), bounded in size; the errors name the fixture and never quote its content.
 */
async function readNamedFixture(dir: string, name: string): Promise<FixtureInput> {
  const { lstat, readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const path = join(dir, `${name}.json`);
  const source = `"${name}"`;
  const info = await lstat(path).catch(() => null);
  if (!info) throw fixtureError(source, 'no such fixture in the fixtures directory');
  if (!info.isFile()) throw fixtureError(source, 'not a regular file');
  if (info.size > MAX_NAMED_FIXTURE_BYTES) throw fixtureError(source, `larger than ${MAX_NAMED_FIXTURE_BYTES / 1024 / 1024} MiB`);
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    throw fixtureError(source, 'not valid JSON');
  }
  return data as FixtureInput;
}

/** Node's environment: the file system. */
const NODE_ENVIRONMENT: Environment = {
  readFixture,
  readNamedFixture,
  loadDomain,
  readRecording: async (path) => (await import('./record/read.js')).readRecording(path),
  get version() {
    return packageVersion();
  },
};

/**
 * Creates the fake's core (no msw): what the standalone server runs.
 * @example
 * const core = await createFakeCore({ clock: 'system' })
 */
export function createFakeCore(input: FakeOptionsInput = {}): Promise<FakeCore> {
  return createCore(input, NODE_ENVIRONMENT);
}
