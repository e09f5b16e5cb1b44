/**
 * A recording read from disk: a folder `fakehands record` wrote (`recording.har` and
 * `conversations/<id>.zip`), or a HAR file on its own (a browser's devtools export). Every problem
 * is one `invalid_options` error naming the path; sizes are bounded before anything is read.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FakehandsError } from '../domain/store/errors.js';
import { harProblem, RECORDING_CONVERSATIONS, RECORDING_HAR, type Har, type Recording } from '../domain/recording/har.js';

/** The largest HAR file read (a recording is bounded by `--max-bytes`, 256 MiB by default). */
export const MAX_HAR_BYTES = 1024 * 1024 * 1024;
/** The largest conversation ZIP read (the replay's own bound on what its events inflate to). */
const MAX_ZIP_BYTES = 64 * 1024 * 1024;

const problem = (path: string, what: string) => new FakehandsError('invalid_options', `invalid recording ${JSON.stringify(path)}: ${what}`);

/** A HAR file, parsed and checked. */
async function readHar(path: string, shown: string): Promise<Har> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw problem(shown, `no ${RECORDING_HAR} in the folder`);
  if (info.size > MAX_HAR_BYTES) throw problem(shown, `larger than ${MAX_HAR_BYTES / 1024 / 1024} MiB`);
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw problem(shown, `not valid JSON (${(error as Error).message.split('\n')[0]})`);
  }
  const wrong = harProblem(data);
  if (wrong) throw problem(shown, `not a HAR file: ${wrong}`);
  return data as Har;
}

/**
 * Reads a recording folder or a HAR file.
 * @example
 * const recording = await readRecording('recordings/session-1')
 */
export async function readRecording(path: string): Promise<Recording> {
  const info = await stat(path).catch(() => null);
  if (!info) throw problem(path, 'no such file or folder');
  if (info.isFile()) return { har: await readHar(path, path) };
  if (!info.isDirectory()) throw problem(path, 'neither a file nor a folder');
  const har = await readHar(join(path, RECORDING_HAR), path);
  const conversations: Record<string, Uint8Array> = {};
  const folder = join(path, RECORDING_CONVERSATIONS);
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.zip')).sort()) {
    const file = join(folder, name);
    const size = (await stat(file)).size;
    if (size > MAX_ZIP_BYTES) throw problem(path, `${RECORDING_CONVERSATIONS}/${name} is larger than ${MAX_ZIP_BYTES / 1024 / 1024} MiB`);
    conversations[name.slice(0, -'.zip'.length)] = new Uint8Array(await readFile(file));
  }
  return { har, conversations };
}
