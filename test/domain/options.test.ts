/**
 * Each option of `createFake` changes what it says it changes (options not covered elsewhere).
 */
import { describe, expect, it } from 'vitest';
import { createFake, createManualClock, type Clock, type FakeOptionsInput } from '../../src/index.js';
import { MAX_FAULTS } from '../../src/instance/faults.js';

const BASE = 'http://localhost:3000';

async function fakeWith(options: FakeOptionsInput) {
  const fake = await createFake({ auth: 'none', fixture: 'empty', ...options });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fake.fetch(
      new Request(`${BASE}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return { status: response.status, body: (await response.json()) as unknown };
  };
  return { fake, call };
}

describe('option journalSize', () => {
  it('keeps only the last N requests', async () => {
    const { fake, call } = await fakeWith({ journalSize: 2 });
    await call('GET', '/api/v1/sandboxes/search?limit=1');
    await call('GET', '/api/v1/sandboxes/search?limit=2');
    await call('GET', '/api/v1/sandboxes/search?limit=3');
    expect(fake.journal.entries().map((e) => [e.seq, e.query])).toEqual([
      [2, '?limit=2'],
      [3, '?limit=3'],
    ]);
  });
});

describe('option userId', () => {
  it('is the created_by_user_id of what the caller creates', async () => {
    const { call } = await fakeWith({ userId: 'user-42', timings: 'instant' });
    expect((await call('POST', '/api/v1/sandboxes')).body).toMatchObject({ created_by_user_id: 'user-42' });
    expect((await call('POST', '/api/v1/app-conversations', {})).body).toMatchObject({ created_by_user_id: 'user-42' });
  });
});

describe('option now', () => {
  it('starts a manual clock at the instant given, and creations are dated then', async () => {
    const { fake, call } = await fakeWith({ clock: 'manual', now: '2031-02-03T04:05:06.000Z' });
    expect(fake.clock.now()).toBe(Date.parse('2031-02-03T04:05:06.000Z'));
    const created = (await call('POST', '/api/v1/sandboxes')).body as { created_at: string };
    expect(created.created_at.startsWith('2031-02-03T04:05:06.')).toBe(true);
  });
});

describe('option clock (a Clock of your own)', () => {
  it('is the only source of time: a sandbox runs when that clock says its start-up time has passed', async () => {
    const inner = createManualClock('2030-01-01T00:00:00Z');
    let reads = 0;
    const clock: Clock = { now: () => (reads++, inner.now()), advance: (ms) => inner.advance(ms), set: (t) => inner.set(t) };
    const { call } = await fakeWith({ clock });
    const sandbox = (await call('POST', '/api/v1/sandboxes')).body as { id: string; created_at: string };
    expect(sandbox.created_at.startsWith('2030-01-01T00:00:00.')).toBe(true);
    inner.advance(2000);
    expect((await call('GET', `/api/v1/sandboxes?id=${sandbox.id}`)).body).toMatchObject([{ status: 'RUNNING' }]);
    expect(reads).toBeGreaterThan(0);
  });
});

describe('option latency (in-process)', () => {
  it('delays every answer by a seeded amount between min and max', async () => {
    const { call } = await fakeWith({ latency: { min: 40, max: 60 } });
    const started = performance.now();
    await call('GET', '/api/v1/sandboxes/search');
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
  });

  it('rejects min above max with a message naming the option', async () => {
    await expect(createFake({ latency: { min: 9, max: 1 } })).rejects.toThrow('latency: min must not exceed max');
  });
});

describe('fault limit', () => {
  it(`keeps at most ${MAX_FAULTS} faults, dropping the oldest`, async () => {
    const { fake } = await fakeWith({});
    for (let i = 0; i <= MAX_FAULTS; i++) fake.faults.add({ kind: 'status', path: `/api/v1/f${i}`, status: 503 });
    const held = fake.faults.list();
    expect(held).toHaveLength(MAX_FAULTS);
    expect(held[0]!.path).toBe('/api/v1/f1');
    expect(held.at(-1)!.path).toBe(`/api/v1/f${MAX_FAULTS}`);
  });

  it('refuses a bad fault with a message naming the field', () => {
    return fakeWith({}).then(({ fake }) => {
      expect(() => fake.faults.add({ kind: 'status', path: 'no-slash', status: 503 })).toThrow(
        'Failed to add a fault: path: a path pattern starts with "/".',
      );
    });
  });
});
