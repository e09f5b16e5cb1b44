/**
 * Reliability round four, the event loop's turns (issue 29, findings 11 and 12): work that grew
 * with what a client had sent before is counted by what changed, and the frames of every socket
 * share one budget a turn. Functional checks (counts, order, which turn); how long a turn takes is
 * measured in bench/ (`npm run bench:loop`, section 11).
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { StoreBudget, Table, sizeOf } from '../../src/domain/store/table.js';
import { SEND_SLICE_CHARS, SocketOutbox } from '../../src/surfaces/agent-server/socket-outbox.js';

const schema = z.object({
  id: z.string(),
  created_at: z.string(),
  messages: z.array(z.string()),
  uploaded_files: z.record(z.string(), z.string()),
  steps: z.array(z.object({ status: z.string() })),
});

/** A table of one record, and the budget it counts against. */
function oneRecord() {
  const budget = new StoreBudget();
  const table = new Table('conversation', schema, {}, () => () => undefined, budget);
  return { budget, table };
}

describe('Table.update, what a record counts for in the budget (finding 12)', () => {
  it('after appends to a list, keys set and removed in a map and a list replaced, counts exactly what sizeOf of the record counts', async () => {
    const { budget, table } = oneRecord();
    let record = await table.insert({ id: 'c1', created_at: '2025-11-03T09:00:00Z', messages: [], uploaded_files: {}, steps: [] });
    expect(budget.bytes).toBe(sizeOf(record));
    for (let i = 0; i < 30; i++) {
      record = await table.update('c1', { messages: [...record.messages, `message "${i}" é\n`.repeat(i + 1)] });
      expect(budget.bytes).toBe(sizeOf(record));
    }
    for (let i = 0; i < 10; i++) {
      const files: Record<string, string> = { ...record.uploaded_files, [`/w/f"${i}`]: 'QUJD'.repeat(i) };
      if (i % 3 === 2) delete files[`/w/f"${i - 1}`];
      record = await table.update('c1', { uploaded_files: files });
      expect(budget.bytes).toBe(sizeOf(record));
    }
    record = await table.update('c1', { messages: ['one'], steps: [{ status: 'WORKING' }, { status: 'READY' }] });
    expect(budget.bytes).toBe(sizeOf(record));
    record = await table.update('c1', { steps: [...record.steps, { status: 'READY' }], uploaded_files: {} });
    expect(budget.bytes).toBe(sizeOf(record));
  });
});

describe('SocketOutbox, the budget of a turn shared by every socket (finding 12)', () => {
  it('hands out at most SEND_SLICE_CHARS (plus the frame that crosses it) in a turn; the rest go on the next turns, each socket in order', async () => {
    const frame = 'e'.repeat(512 * 1024);
    const handed: string[][] = [];
    const outboxes = Array.from({ length: 20 }, (_, n) => {
      handed.push([]);
      return new SocketOutbox(
        (text, written) => {
          handed[n]!.push(text.slice(0, 3));
          written();
        },
        () => undefined,
      );
    });
    // Let a turn begin with nothing handed yet.
    await new Promise((resolve) => setImmediate(resolve));
    for (const [n, outbox] of outboxes.entries()) {
      outbox.push(`${n}a${frame}`);
      outbox.push(`${n}b${frame}`);
    }
    const count = () => handed.reduce((sum, frames) => sum + frames.length, 0);
    const firstTurn = count();
    expect(firstTurn).toBe(Math.ceil(SEND_SLICE_CHARS / (frame.length + 2)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(count()).toBeGreaterThan(firstTurn);
    for (let turns = 0; count() < 40 && turns < 100; turns++) await new Promise((resolve) => setImmediate(resolve));
    expect(count()).toBe(40);
    for (const [n, frames] of handed.entries()) expect(frames).toEqual([`${n}a`.padEnd(3, 'e'), `${n}b`.padEnd(3, 'e')]);
  });
});
