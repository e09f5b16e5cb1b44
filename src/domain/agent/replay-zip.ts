/**
 * A V1 conversation's downloaded ZIP (`GET /api/file/download-trajectory/{id}`, openhands-agent-server
 * `file_router.py`, `download_trajectory`: the conversation's persistence folder, `base_state.json`
 * and one `events/event-NNNNN-<id>.json` per event) read back as the V1 event log it holds, to
 * replay. Its entries are listed from the central directory (`zip-entries.ts`), so the event files
 * are counted before any is inflated and no other file ever is; each is inflated with fflate (a
 * small, well-kept library that runs in Node and the browser) under two bounds, one event
 * (`MAX_REPLAY_EVENT_BYTES`: stored, an event of tens of megabytes would hold the loop for seconds on
 * every later read of its conversation) and all of them (`MAX_REPLAY_ZIP_INFLATED`), so an archive
 * that inflates to far more than it says (a ZIP bomb) is stopped at a bound: a small entry (which
 * cannot inflate past a few megabytes) at once into a buffer of its declared size, a larger one in
 * slices, stopped as it passes. The event loop gets a turn whenever the work has held it for 10 ms
 * (`breathe`); no buffer beyond an entry's own is made (a streaming reader's window of 32 to 128 KiB
 * per entry, 10,000 times, held the loop in garbage collection for 100 ms at a time).
 */
import { Inflate, inflateSync } from 'fflate';
import type { V1RecordedEvent } from '../../schemas/replay.js';
import { MAX_REPLAY_EVENT_BYTES, MAX_REPLAY_EVENTS, V1RecordedEvent as V1RecordedEventSchema } from '../../schemas/replay.js';
import { breathe } from '../store/mutex.js';
import { invalid, type Refusal } from '../store/refusal.js';
import { zipEntries, type ZipEntry } from './zip-entries.js';

/** Most bytes the event files of one archive may inflate to, in all. */
export const MAX_REPLAY_ZIP_INFLATED = 64 * 1024 * 1024;
/** Most bytes one event file may inflate to (`schemas/replay.ts`). */
export { MAX_REPLAY_EVENT_BYTES };
/**
 * Largest archive `POST /_fakehands/replay/zip` reads (its multipart body): the events' own bound,
 * enough for an archive whose events are stored uncompressed. A real session's 10,000 events
 * compress to a few megabytes.
 */
export const MAX_REPLAY_ZIP_BYTES = MAX_REPLAY_ZIP_INFLATED;

/** Compressed bytes fed at a time to a large entry's inflater: at most about a thousand times that inflates between two looks at the bounds. */
const SLICE = 1024;
/** Compressed entries up to this size are inflated in one go: at most about 4 MiB of work can come of one (DEFLATE's ratio is at most 1,032). */
const SMALL_ENTRY = 4096;

/** An event file of the persistence folder: `events/event-00001-<id>.json`, at any depth (a zipped folder). */
const EVENT_FILE = /(^|\/)events\/event-\d+-[^/]+\.json$/;
/** The conversation's `ConversationInfo` in the persistence folder, at any depth. */
const BASE_STATE_FILE = /(^|\/)base_state\.json$/;

/** Why an archive with no event file is refused. */
const NO_EVENTS = 'the archive holds no events/event-*.json file (a ZIP from GET /api/file/download-trajectory/{conversation_id})';

const refusal = (msg: string, input: unknown = null): Refusal =>
  invalid([{ type: 'value_error', loc: ['body', 'file'], msg: `Value error, ${msg}`, input, ctx: { error: {} } }]);

/** An entry's bytes once inflated, or why not: past `limit` bytes it is stopped (`over`). */
async function inflated(entry: ZipEntry, limit: number): Promise<Uint8Array | 'over' | string> {
  if (entry.method === 0) return entry.data.length > limit ? 'over' : entry.data;
  if (entry.method !== 8)
    return `the archive's ${entry.name} uses compression method ${entry.method} (only stored and deflated entries are read)`;
  // What the directory declares is checked first (an honest archive's oversized event is refused
  // without inflating it); what an entry really inflates to is bounded below, whatever it declares.
  if (entry.declaredSize > limit) return 'over';
  try {
    if (entry.data.length <= SMALL_ENTRY) {
      // Into a buffer of the declared size: no larger one is made (a bigger buffer per entry, 10,000
      // times, was most of the time), and a lie past it is cut off (it then reads as no JSON).
      return inflateSync(entry.data, { out: new Uint8Array(entry.declaredSize) });
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const inflater = new Inflate((chunk) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    for (let at = 0; at < entry.data.length && size <= limit; at += SLICE) {
      inflater.push(entry.data.subarray(at, at + SLICE), at + SLICE >= entry.data.length);
      await breathe();
    }
    if (size > limit) return 'over';
    const whole = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      whole.set(chunk, offset);
      offset += chunk.length;
    }
    return whole;
  } catch (error) {
    return `the archive's ${entry.name} cannot be read (${(error as Error).message})`;
  }
}

/**
 * The events of a downloaded conversation ZIP, in the order of their file names (the event log's
 * order), each checked as a V1 event; a refusal (422 at `body.file`) for bytes that are no such
 * archive, an archive with no event file, or one past the bounds (`maxInflated` bytes of events in
 * all, `maxEvent` bytes in one event file).
 */
export async function eventsOfTrajectoryZip(
  bytes: Uint8Array,
  maxInflated: number = MAX_REPLAY_ZIP_INFLATED,
  maxEvent: number = MAX_REPLAY_EVENT_BYTES,
): Promise<V1RecordedEvent[] | Refusal> {
  const read = await trajectoryZipContents(bytes, maxInflated, maxEvent);
  if (!('events' in read)) return read;
  return read.events.length > 0 ? read.events : refusal(NO_EVENTS);
}

/**
 * What a downloaded conversation ZIP holds: its events (as `eventsOfTrajectoryZip` reads them) and
 * its `base_state.json` (the conversation's `ConversationInfo`; `null` when absent, past the one-event
 * bound or not a JSON object), under the same bounds; an archive with a `base_state.json` may hold no event.
 */
export async function trajectoryZipContents(
  bytes: Uint8Array,
  maxInflated: number = MAX_REPLAY_ZIP_INFLATED,
  maxEvent: number = MAX_REPLAY_EVENT_BYTES,
): Promise<{ events: V1RecordedEvent[]; baseState: Record<string, unknown> | null } | Refusal> {
  const entries = zipEntries(bytes);
  if (typeof entries === 'string') return refusal(entries);
  const files = entries.filter((entry) => EVENT_FILE.test(entry.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (files.length > MAX_REPLAY_EVENTS) return refusal(`the archive holds more than ${MAX_REPLAY_EVENTS} events`);
  const base = entries.find((entry) => BASE_STATE_FILE.test(entry.name));
  if (files.length === 0 && !base) return refusal(NO_EVENTS);
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const events: V1RecordedEvent[] = [];
  let total = 0;
  for (const file of files) {
    await breathe();
    const left = maxInflated - total;
    const bytesOf = await inflated(file, Math.min(maxEvent, left));
    if (typeof bytesOf === 'string') {
      if (bytesOf !== 'over') return refusal(bytesOf);
      return refusal(
        maxEvent <= left
          ? `the archive's ${file.name} inflates to more than ${maxEvent} bytes (one event may hold at most that)`
          : `the archive's events inflate to more than ${maxInflated} bytes`,
      );
    }
    total += bytesOf.length;
    let parsed: unknown;
    try {
      parsed = JSON.parse(decoder.decode(bytesOf));
    } catch {
      return refusal(`the archive's ${file.name} is not JSON`, file.name);
    }
    const event = V1RecordedEventSchema.safeParse(parsed);
    if (!event.success) return refusal(`the archive's ${file.name} is not an agent-server event (it needs a kind and a source)`, file.name);
    // The event as written (its keys in their order, so a replay answers it byte for byte), once it is known to be one.
    events.push(parsed as V1RecordedEvent);
  }
  return { events, baseState: base ? await baseStateOf(base, maxEvent, decoder) : null };
}

/** A `base_state.json` entry as a JSON object, or `null` (past `limit` bytes, unreadable, or not an object). */
async function baseStateOf(entry: ZipEntry, limit: number, decoder: TextDecoder): Promise<Record<string, unknown> | null> {
  const bytesOf = await inflated(entry, limit);
  if (typeof bytesOf === 'string') return null;
  try {
    const parsed: unknown = JSON.parse(decoder.decode(bytesOf));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
