/**
 * The hand-written ZIP writer and reader (`src/domain/agent/zip.ts`, `zip-entries.ts`) against
 * fflate (already a dependency: it inflates a replayed archive's events), for what the fake asks of
 * a ZIP library: speed and memory writing a workspace, holding the event loop while it streams,
 * ZIP64 past 65,535 entries, listing an archive without inflating it, and a bomb (an entry that
 * inflates to far more than it declares).
 *
 * Run with `npx tsx --expose-gc bench/zip.ts` (figures go to stdout; `src/domain/agent/zip.ts`'s
 * header keeps the last ones).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Zip, ZipPassThrough, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { zipArchive, zipPieces } from '../src/domain/agent/zip.js';
import { zipEntries } from '../src/domain/agent/zip-entries.js';
import { eventsOfTrajectoryZip } from '../src/domain/agent/replay-zip.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** A workspace of `count` text files of `size` bytes each. */
function workspace(count: number, size: number): Record<string, string> {
  const files: Record<string, string> = {};
  const line = 'const answer = 42; // a line of a source file in the workspace\n';
  for (let i = 0; i < count; i++) files[`src/dir${i % 50}/file-${i}.ts`] = line.repeat(Math.ceil(size / line.length)).slice(0, size);
  return files;
}

/** Runs `work` `runs` times: the median milliseconds and the most memory (heap + array buffers) it added. */
async function measure(runs: number, work: () => unknown | Promise<unknown>): Promise<{ ms: number; mb: number }> {
  const times: number[] = [];
  let peak = 0;
  for (let i = 0; i < runs; i++) {
    gc();
    const before = process.memoryUsage();
    const started = performance.now();
    const result = await work();
    times.push(performance.now() - started);
    const after = process.memoryUsage();
    peak = Math.max(peak, after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers);
    void result;
  }
  times.sort((a, b) => a - b);
  return { ms: Math.round(times[Math.floor(times.length / 2)]! * 10) / 10, mb: Math.round(peak / 1e5) / 10 };
}

/** The longest the event loop was held while `work` ran (a timer asked for every millisecond). */
async function longestHold(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await work();
  clearInterval(timer);
  return Math.round(Math.max(longest, performance.now() - last));
}

/** fflate's streaming writer with stored entries (what `zipPieces` does), collecting its pieces. */
async function fflateStream(files: Record<string, string>): Promise<number> {
  let total = 0;
  await new Promise<void>((done, fail) => {
    const zip = new Zip((error, chunk, final) => {
      if (error) fail(error);
      else {
        total += chunk.length;
        if (final) done();
      }
    });
    for (const [name, text] of Object.entries(files)) {
      const entry = new ZipPassThrough(name);
      zip.add(entry);
      entry.push(strToU8(text), true);
    }
    zip.end();
  });
  return total;
}

/** How many entries the system's Info-ZIP (`zipinfo`, a reader that knows ZIP64) lists in `bytes`. */
function infoZipTest(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'fakehands-zip-'));
  try {
    writeFileSync(join(dir, 'a.zip'), bytes);
    const listed = execFileSync('zipinfo', ['-1', join(dir, 'a.zip')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 1 << 26,
    });
    return `lists ${listed.trim().split('\n').length}`;
  } catch (error) {
    return `fails: ${String((error as { stderr?: string }).stderr ?? error).split('\n')[0]}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A one-event trajectory archive whose event declares 1 KiB and inflates to `bytes` of spaces. */
function bomb(bytes: number): Uint8Array {
  const event = new Uint8Array(bytes).fill(0x20);
  event.set(strToU8('{"kind":"PauseEvent"'), 0);
  const zip = zipSync({ 'events/event-00000-a.json': [event, { level: 9 }] } as Zippable);
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  view.setUint32(22, 1024, true); // local header: uncompressed size
  for (let at = zip.length - 22; at >= 0; at--) {
    if (view.getUint32(at, true) === 0x02014b50) {
      view.setUint32(at + 24, 1024, true); // central directory: uncompressed size
      break;
    }
  }
  return zip;
}

const NOW = Date.parse('2026-01-01T00:00:00Z');
const rows: string[] = [];
const row = (text: string) => {
  rows.push(text);
  console.log(text);
};

// Writing: a workspace of 2,000 files of 40 KB (80 MB).
const big = workspace(2000, 40_000);
const hand = await measure(5, () => zipArchive(big, NOW));
const flat = await measure(5, () =>
  zipSync(Object.fromEntries(Object.entries(big).map(([k, v]) => [k, [strToU8(v), { level: 0 }]])) as Zippable),
);
row(`write 80 MB, 2,000 files, in one call: hand ${hand.ms} ms ${hand.mb} MB; fflate zipSync (level 0) ${flat.ms} ms ${flat.mb} MB`);
const handStream = await measure(3, async () => {
  for await (const piece of zipPieces(big, NOW)) void piece;
});
const flatStream = await measure(3, () => fflateStream(big));
row(
  `write 80 MB streamed: hand zipPieces ${handStream.ms} ms ${handStream.mb} MB; fflate Zip + ZipPassThrough ${flatStream.ms} ms ${flatStream.mb} MB`,
);
const holdHand = await longestHold(async () => {
  for await (const piece of zipPieces(big, NOW)) void piece;
});
const holdFlat = await longestHold(() => fflateStream(big));
row(`longest hold of the event loop while streaming 80 MB: hand ${holdHand} ms; fflate ${holdFlat} ms`);

// ZIP64: 70,000 entries (past the 65,535 a classic directory counts).
const many = workspace(70_000, 10);
const handMany = zipArchive(many, NOW);
const flatMany = zipSync(Object.fromEntries(Object.entries(many).map(([k, v]) => [k, [strToU8(v), { level: 0 }]])) as Zippable);
const countOf = (bytes: Uint8Array) => {
  try {
    return Object.keys(unzipSync(bytes)).length;
  } catch (error) {
    return `throws (${(error as Error).message})`;
  }
};
row(
  `70,000 entries: hand → Info-ZIP ${infoZipTest(handMany)}, fflate reads back ${countOf(handMany)}; fflate → Info-ZIP ${infoZipTest(flatMany)}, fflate reads back ${countOf(flatMany)}`,
);

// Listing without inflating: 10,000 deflated events.
const events = Object.fromEntries(
  Array.from({ length: 10_000 }, (_, i) => [
    `events/event-${String(i).padStart(5, '0')}-e${i}.json`,
    [strToU8(JSON.stringify({ kind: 'PauseEvent', id: `e${i}`, source: 'user', timestamp: '2026-01-01T00:00:00' })), { level: 6 }],
  ]),
);
const eventsZip = zipSync(events as Zippable);
const list = await measure(9, () => zipEntries(eventsZip));
const listFlat = await measure(9, () => {
  const names: string[] = [];
  unzipSync(eventsZip, {
    filter: (file) => {
      names.push(file.name);
      return false;
    },
  });
  return names;
});
row(
  `list 10,000 entries (${Math.round(eventsZip.length / 1e5) / 10} MB) without inflating: hand zipEntries ${list.ms} ms; fflate unzipSync with a filter ${listFlat.ms} ms`,
);

// A bomb: one event declaring 1 KiB that inflates to 200 MB.
const bombZip = bomb(200 * 1024 * 1024);
let handVerdict = '';
const handBomb = await measure(1, async () => {
  const result = await eventsOfTrajectoryZip(bombZip);
  handVerdict = Array.isArray(result)
    ? `reads ${result.length} event(s)`
    : `refuses: ${JSON.stringify(result.errors?.[0]?.msg ?? result.detail ?? result.reason)}`;
});
let flatVerdict = '';
const flatBomb = await measure(1, () => {
  try {
    const out = unzipSync(bombZip);
    flatVerdict = `returns ${Object.values(out)[0]!.length} bytes`;
  } catch (error) {
    flatVerdict = `throws (${(error as Error).message})`;
  }
});
row(
  `bomb (${Math.round(bombZip.length / 1e3)} KB declaring 1 KiB, inflating to 200 MB): hand reader + bounded fflate Inflate ${handBomb.ms} ms ${handBomb.mb} MB → ${handVerdict}; fflate unzipSync ${flatBomb.ms} ms ${flatBomb.mb} MB → ${flatVerdict}`,
);
