/**
 * A V1 conversation's downloaded ZIP (`GET /api/file/download-trajectory/{id}`, openhands-agent-server
 * `file_router.py`, `download_trajectory`: the conversation's persistence folder, `base_state.json`
 * and one `events/event-NNNNN-<id>.json` per event) read back as the V1 event log it holds, to
 * replay. The archive is read with fflate (a small, well-kept ZIP library that runs in Node and the
 * browser), fed in small slices with a turn of the event loop between them, so that an archive
 * that inflates to far more than it says (a ZIP bomb) is stopped at a bound and never stalls the
 * loop: only what the bound lets through is ever inflated.
 */
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import type { V1RecordedEvent } from '../../schemas/replay.js';
import { MAX_REPLAY_EVENTS, V1RecordedEvent as V1RecordedEventSchema } from '../../schemas/replay.js';
import { invalid, type Refusal } from '../store/refusal.js';

/** Most bytes the event files of one archive may inflate to, in all. */
export const MAX_REPLAY_ZIP_INFLATED = 64 * 1024 * 1024;

/** Compressed bytes fed at a time: at most about a thousand times that inflates in one turn. */
const SLICE = 1024;

/** An event file of the persistence folder: `events/event-00001-<id>.json`, at any depth (a zipped folder). */
const EVENT_FILE = /(^|\/)events\/event-\d+-[^/]+\.json$/;
/** The conversation's `ConversationInfo` in the persistence folder, at any depth. */
const BASE_STATE_FILE = /(^|\/)base_state\.json$/;

/** Why an archive with no event file is refused. */
const NO_EVENTS = 'the archive holds no events/event-*.json file (a ZIP from GET /api/file/download-trajectory/{conversation_id})';

const refusal = (msg: string, input: unknown = null): Refusal =>
  invalid([{ type: 'value_error', loc: ['body', 'file'], msg: `Value error, ${msg}`, input, ctx: { error: {} } }]);

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The events of a downloaded conversation ZIP, in the order of their file names (the event log's
 * order), each checked as a V1 event; a refusal (422 at `body.file`) for bytes that are no such
 * archive, an archive with no event file, or one past the bounds (`maxInflated` bytes of events in all).
 */
export async function eventsOfTrajectoryZip(
  bytes: Uint8Array,
  maxInflated: number = MAX_REPLAY_ZIP_INFLATED,
): Promise<V1RecordedEvent[] | Refusal> {
  const read = await trajectoryZipContents(bytes, maxInflated);
  if (!('events' in read)) return read;
  return read.events.length > 0 ? read.events : refusal(NO_EVENTS);
}

/**
 * What a downloaded conversation ZIP holds: its events (as `eventsOfTrajectoryZip` reads them) and
 * its `base_state.json` (the conversation's `ConversationInfo`; `null` when absent or not a JSON
 * object), under the same bounds; an archive with a `base_state.json` may hold no event.
 */
export async function trajectoryZipContents(
  bytes: Uint8Array,
  maxInflated: number = MAX_REPLAY_ZIP_INFLATED,
): Promise<{ events: V1RecordedEvent[]; baseState: Record<string, unknown> | null } | Refusal> {
  const files = new Map<string, Uint8Array[]>();
  let baseState = null as Uint8Array[] | null;
  let inflated = 0;
  let failure: string | null = null;
  const open: UnzipFile[] = [];
  const unzip = new Unzip((file) => {
    const isBase = baseState === null && BASE_STATE_FILE.test(file.name);
    if (!isBase && !EVENT_FILE.test(file.name)) return;
    if (!isBase && files.size >= MAX_REPLAY_EVENTS) {
      failure = `the archive holds more than ${MAX_REPLAY_EVENTS} events`;
      return;
    }
    const chunks: Uint8Array[] = [];
    if (isBase) baseState = chunks;
    else files.set(file.name, chunks);
    open.push(file);
    file.ondata = (error, data) => {
      if (failure) return;
      if (error) {
        failure = `the archive's ${file.name} cannot be read (${error.message})`;
        return;
      }
      inflated += data.length;
      if (inflated > maxInflated) failure = `the archive's events inflate to more than ${maxInflated} bytes`;
      else chunks.push(data);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length && !failure; at += SLICE) {
      unzip.push(bytes.subarray(at, at + SLICE), at + SLICE >= bytes.length);
      if (at + SLICE < bytes.length) await nextTurn();
    }
    if (bytes.length === 0) unzip.push(new Uint8Array(0), true);
  } catch (error) {
    failure ??= `the file is not a ZIP archive (${(error as Error).message})`;
  }
  if (failure) {
    for (const file of open) file.terminate();
    return refusal(failure);
  }
  if (files.size === 0 && baseState === null) return refusal(NO_EVENTS);
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const textOf = (chunks: Uint8Array[]) => {
    const whole = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      whole.set(chunk, offset);
      offset += chunk.length;
    }
    return decoder.decode(whole);
  };
  const events: V1RecordedEvent[] = [];
  for (const name of [...files.keys()].sort()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(textOf(files.get(name)!));
    } catch {
      return refusal(`the archive's ${name} is not JSON`, name);
    }
    const event = V1RecordedEventSchema.safeParse(parsed);
    if (!event.success) return refusal(`the archive's ${name} is not an agent-server event (it needs a kind and a source)`, name);
    // The event as written (its keys in their order), once it is known to be one.
    events.push(parsed as V1RecordedEvent);
  }
  let base: unknown = null;
  try {
    base = baseState === null ? null : JSON.parse(textOf(baseState));
  } catch {
    base = null;
  }
  return {
    events,
    baseState: typeof base === 'object' && base !== null && !Array.isArray(base) ? (base as Record<string, unknown>) : null,
  };
}
