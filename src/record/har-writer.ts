/**
 * The recording's HAR file, written as exchanges come: always a whole, valid HAR 1.2 document on
 * disk (each entry written over the closing brackets, which follow it again), so a recording
 * stopped any time reads back. Writes are queued one after another; `close` masks, in the whole
 * file, any secret learned after the entry that held it was written.
 */
import { open, readFile, writeFile, type FileHandle } from 'node:fs/promises';
import type { HarEntry } from '../domain/recording/har.js';

/** The end of the document, after the last entry. */
const TAIL = '\n]}}\n';

/** An open HAR file. */
export class HarWriter {
  private chain: Promise<void> = Promise.resolve();
  private entries = 0;
  /** Where the next entry goes (the tail's offset). */
  private at = 0;

  private constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
  ) {}

  /** Creates the file (refusing one that exists) with no entry yet. */
  static async create(path: string, creator: { name: string; version: string }): Promise<HarWriter> {
    const handle = await open(path, 'wx');
    const writer = new HarWriter(handle, path);
    const head = `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"pages":[],"entries":[`;
    await handle.write(`${head}${TAIL}`, 0);
    writer.at = Buffer.byteLength(head);
    return writer;
  }

  /** Bytes of the file. */
  get size(): number {
    return this.at + TAIL.length;
  }

  /** How many entries were written. */
  get count(): number {
    return this.entries;
  }

  /** The bytes `entry` adds to the file. */
  static sizeOf(entry: HarEntry): number {
    return Buffer.byteLength(JSON.stringify(entry)) + 2;
  }

  /** Appends an entry (after those before it); resolves once it is on disk. */
  append(entry: HarEntry): Promise<void> {
    const text = `${this.entries === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}`;
    const offset = this.at;
    this.at += Buffer.byteLength(text);
    this.entries++;
    const write = this.chain.then(async () => {
      await this.handle.write(`${text}${TAIL}`, offset);
    });
    this.chain = write.catch(() => undefined);
    return write;
  }

  /** Waits for the writes so far, closes the file, then passes its text through `mask` (rewritten only when that changed it). */
  async close(mask: (text: string) => string): Promise<void> {
    await this.chain;
    await this.handle.close();
    const text = await readFile(this.path, 'utf8');
    const masked = mask(text);
    if (masked !== text) await writeFile(this.path, masked);
  }
}

/**
 * What a recording may still write under `--max-bytes`: bodies while the recording and twice the
 * body (it may land in a conversation's ZIP too) stay below the limit less a reserve; after that
 * exchanges without bodies, while they fit; then nothing.
 */
export class RecordingBudget {
  /** Bytes of the conversations' ZIPs, by file. */
  private readonly zips = new Map<string, number>();

  constructor(
    readonly maxBytes: number,
    private readonly harSize: () => number,
  ) {}

  /** The bytes the recording holds on disk. */
  get used(): number {
    let total = this.harSize();
    for (const size of this.zips.values()) total += size;
    return total;
  }

  /** What the limit keeps for exchanges without bodies and the ZIPs' headers. */
  private get reserve(): number {
    return Math.max(2048, Math.floor(this.maxBytes / 16));
  }

  /** Whether a body of `bytes` may be recorded now. */
  bodyFits(bytes: number): boolean {
    return this.used + 2 * bytes + 2048 <= this.maxBytes - this.reserve;
  }

  /** Whether an entry of `bytes` (its bodies in it or not) may be written now. */
  entryFits(bytes: number): boolean {
    return this.used + bytes <= this.maxBytes - 64;
  }

  /** Whether a ZIP of `bytes` may replace the one of `file`. */
  zipFits(file: string, bytes: number): boolean {
    return this.used - (this.zips.get(file) ?? 0) + bytes <= this.maxBytes - 64;
  }

  /** Notes the size of a ZIP written (0: removed). */
  zipWritten(file: string, bytes: number): void {
    if (bytes === 0) this.zips.delete(file);
    else this.zips.set(file, bytes);
  }
}
