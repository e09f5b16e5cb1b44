/**
 * Your own declared differences for `fakehands drift --known FILE`: a JSON array of
 * `{"operation", "location", "aspect"?, "reason"}`, each a difference between your provider and the
 * fake that you know of and accept. Validated; a bad file is one line and exit 2.
 */
import * as z from 'zod/mini';
import { FakehandsError } from '../domain/store/errors.js';
import type { KnownDifference } from './compare.js';

/** One declaration of the file. */
const Declaration = z.strictObject({
  operation: z.string().check(z.regex(/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \/\S*$/, 'expected "METHOD /path"')),
  location: z.string().check(z.minLength(1)),
  aspect: z.optional(z.enum(['type', 'enum', 'required', 'bounds', 'declared', 'served'])),
  reason: z.string().check(z.minLength(1)),
});

/** The schema of a `--known` file: an array of declarations. */
export const KnownDifferencesFile = z.array(Declaration);

/**
 * Reads a `--known` file; each declaration remembers the file, so a stale one names it.
 * @example
 * const extraKnown = await readKnownDifferences('drift-known.json')
 */
export async function readKnownDifferences(path: string): Promise<KnownDifference[]> {
  const { readFile } = await import('node:fs/promises');
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FakehandsError(
      'usage',
      `invalid --known ${path}: ${code === 'ENOENT' ? 'no such file' : `not JSON (${(error as Error).message})`}`,
    );
  }
  const result = KnownDifferencesFile.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new FakehandsError(
      'usage',
      `invalid --known ${path}: ${
        issue.path.length
          ? `${issue.path
              .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
              .join('')
              .replace(/^\./, '')}: `
          : ''
      }${issue.message} (expected [{"operation": "METHOD /path", "location", "aspect"?, "reason"}])`,
    );
  }
  return result.data.map((declaration) => ({ ...declaration, source: path }) as KnownDifference);
}
