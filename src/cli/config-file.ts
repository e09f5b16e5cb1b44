/**
 * `fakehands.config.json`: the options of `fakehands serve` in a file of the working folder, keyed
 * by flag name, checked by their own schema (`ConfigFile`, also written as JSON Schema for editors).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { CONFIG_FILE, SERVE_FLAGS, ServeOptions, usage, type LoadedConfigFile } from './options.js';

/** How a value of the config file is written: as the option's own type, except `latency` ("MIN-MAX", as the flag). */
const configValue = (key: string): z.ZodMiniType =>
  key === 'latency'
    ? z.string().check(z.regex(/^\d+-\d+$/, 'expected "MIN-MAX" in milliseconds, e.g. "50-300"'))
    : (ServeOptions.shape as Record<string, z.ZodMiniType>)[key]!;

/**
 * The schema of `fakehands.config.json`: any option of `fakehands serve`, keyed by its flag's name
 * (`"agent-port"`), typed (numbers as numbers); unknown keys are refused. `npm run config-schema`
 * writes it as JSON Schema (`fakehands.config.schema.json`) for editors.
 */
export const ConfigFile = z.strictObject({
  $schema: z.optional(z.string()),
  ...Object.fromEntries(
    Object.entries(SERVE_FLAGS)
      .filter(([, o]) => o.key !== null)
      .map(([flag, o]) => {
        const schema = z.optional(configValue(o.key!));
        z.globalRegistry.add(schema, { description: o.help });
        return [flag, schema];
      }),
  ),
});

/** Reads `fakehands.config.json` from `folder`, if there is one; a bad one is a `usage` error naming the key. */
export function readConfigFile(folder: string): LoadedConfigFile | null {
  const path = join(folder, CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw usage(`cannot read ${CONFIG_FILE}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw usage(`invalid ${CONFIG_FILE}: not valid JSON (${(error as Error).message}) (see fakehands serve --help)`);
  }
  const result = ConfigFile.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = issue.path.length ? `"${issue.path.map(String).join('.')}": ` : '';
    const unknown = issue.code === 'unrecognized_keys' ? `unknown option ${issue.keys.map((k) => `"${k}"`).join(', ')}` : issue.message;
    throw usage(`invalid ${CONFIG_FILE}: ${key}${unknown} (see fakehands serve --help)`);
  }
  // Only what the file says: the schema's defaults must not hide an environment variable.
  const parsed = result.data as Record<string, unknown>;
  return {
    path,
    values: Object.fromEntries(
      Object.keys(data as object)
        .filter((key) => key !== '$schema')
        .map((key) => [key, parsed[key]]),
    ),
  };
}
