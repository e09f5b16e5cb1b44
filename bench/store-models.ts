/**
 * Where the records live, decided by measurement (`npm run bench -- store`): the project's own
 * `Table` (an id index, orderings kept sorted on write, a budget, undo and change events) against
 * @msw/data's `Collection` (the maintained successor of @mswjs/data) holding the same records with
 * the same zod schema, on the operations the fake's routes make: fill, get by id, update by id,
 * the first page newest first, and loading a small fixture (what a tenant or a reset costs).
 * Every figure is a ratio against `Table` in the same run, on this machine.
 */
import { Collection } from '@msw/data';
import { StoreBudget, Table } from '../src/domain/store/table.js';
import { SandboxRecord } from '../src/schemas/records.js';

const SIZES = (process.env.BENCH_STORE_SIZES ?? '1000,10000,100000').split(',').map(Number);
/** Lookups and updates timed per size (each a lookup by id). */
const PROBES = 50;
/** Records in the fixture a tenant or a reset loads. */
const FIXTURE_RECORDS = 100;

/** A sandbox record numbered `n`, created `n` seconds after a fixed instant. */
const sandbox = (n: number) => ({
  id: `sb-${n}`,
  sandbox_spec_id: 'spec',
  status: 'RUNNING' as const,
  session_api_key: `key-${n}`,
  agent_port: 1 + (n % 65535),
  created_at: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
});

/** Milliseconds `work` takes, the median of `runs`. */
async function time(work: () => unknown | Promise<unknown>, runs = 1): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

/** One model's figures at one size, in milliseconds. */
interface Figures {
  fill: number;
  get: number;
  update: number;
  firstPage: number;
  fixture: number;
}

async function table(size: number): Promise<Figures> {
  const make = () => new Table('sandbox', SandboxRecord, {}, () => () => undefined, new StoreBudget());
  const records = make();
  const fill = await time(async () => {
    for (let n = 0; n < size; n++) await records.insert(sandbox(n));
  });
  const probes = Array.from({ length: PROBES }, (_, i) => `sb-${Math.floor((i * size) / PROBES)}`);
  const get = await time(() => {
    for (const id of probes) records.get(id);
  });
  const update = await time(async () => {
    for (const id of probes) await records.update(id, { status: 'PAUSED' });
  });
  const firstPage = await time(
    () =>
      records.orderings.all
        .ids()
        .slice(-20)
        .reverse()
        .map((id) => records.get(id)),
    5,
  );
  const fixture = await time(async () => {
    const fresh = make();
    for (let n = 0; n < FIXTURE_RECORDS; n++) await fresh.insert(sandbox(n));
  }, 5);
  return { fill, get, update, firstPage, fixture };
}

async function collection(size: number): Promise<Figures> {
  const make = () => new Collection({ schema: SandboxRecord });
  const records = make();
  const fill = await time(async () => {
    for (let n = 0; n < size; n++) await records.create(sandbox(n));
  });
  const probes = Array.from({ length: PROBES }, (_, i) => `sb-${Math.floor((i * size) / PROBES)}`);
  const get = await time(() => {
    for (const id of probes) records.findFirst((q) => q.where({ id }));
  });
  const update = await time(async () => {
    for (const id of probes)
      await records.update((q) => q.where({ id }), {
        data(record) {
          record.status = 'PAUSED';
        },
      });
  });
  // findMany applies `take` before `orderBy` (see DESIGN.md): sort everything, then take the page.
  const firstPage = await time(() => records.findMany(undefined, { orderBy: { created_at: 'desc' } }).slice(0, 20), 5);
  const fixture = await time(async () => {
    const fresh = make();
    for (let n = 0; n < FIXTURE_RECORDS; n++) await fresh.create(sandbox(n));
  }, 5);
  return { fill, get, update, firstPage, fixture };
}

const round = (value: number) => Math.round(value * 100) / 100;
const rows: Record<string, string | number>[] = [];
for (const size of SIZES) {
  const own = await table(size);
  const msw = await collection(size);
  for (const key of Object.keys(own) as (keyof Figures)[]) {
    rows.push({
      records: size,
      operation: key,
      'Table ms': round(own[key]),
      '@msw/data ms': round(msw[key]),
      ratio: round(msw[key] / Math.max(own[key], 0.001)),
    });
  }
}
console.table(rows);
const worst = Math.max(...rows.map((r) => Number(r.ratio)));
console.log(`@msw/data within 10% of Table on every operation: ${worst <= 1.1 ? 'yes' : `no (worst ${worst}×)`}`);
