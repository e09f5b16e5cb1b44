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
  const files = new Map<string, Uint8Array[]>();
  let inflated = 0;
  let failure: string | null = null;
  const open: UnzipFile[] = [];
  const unzip = new Unzip((file) => {
    if (!EVENT_FILE.test(file.name)) return;
    if (files.size >= MAX_REPLAY_EVENTS) {
      failure = `the archive holds more than ${MAX_REPLAY_EVENTS} events`;
      return;
    }
    const chunks: Uint8Array[] = [];
    files.set(file.name, chunks);
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
  if (files.size === 0)
    return refusal('the archive holds no events/event-*.json file (a ZIP from GET /api/file/download-trajectory/{conversation_id})');
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const events: V1RecordedEvent[] = [];
  for (const name of [...files.keys()].sort()) {
    const chunks = files.get(name)!;
    const whole = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      whole.set(chunk, offset);
      offset += chunk.length;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(decoder.decode(whole));
    } catch {
      return refusal(`the archive's ${name} is not JSON`, name);
    }
    const event = V1RecordedEventSchema.safeParse(parsed);
    if (!event.success) return refusal(`the archive's ${name} is not an agent-server event (it needs a kind and a source)`, name);
    events.push(event.data);
  }
  return events;
}
