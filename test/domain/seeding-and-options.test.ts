import { describe, expect, it, vi } from 'vitest';
import { createFake } from '../../src/index.js';

async function scenario(seed: number) {
  const fake = await createFake({ seed, fixture: 'empty', auth: 'none', clock: 'manual' });
  const post = (path: string, body?: unknown) =>
    fake.fetch(
      new Request(`http://localhost:3000${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  await post('/api/v1/sandboxes');
  await post('/api/conversations', {});
  await post('/api/v1/app-conversations', { selected_repository: 'a/b' });
  fake.clock.advance(30_000);
  return fake.snapshot();
}

describe('clock (default system)', () => {
  it("agrees with the client's Date.now(), and fixture times are relative to the clock's start", async () => {
    const fake = await createFake({ auth: 'none' });
    expect(Math.abs(fake.clock.now() - Date.now())).toBeLessThan(1000);
    const { conversations } = await fake.snapshot();
    const newest = conversations
      .map((c) => Date.parse(c.created_at))
      .sort()
      .at(-1)!;
    expect(Date.now() - newest).toBeGreaterThan(0);
    expect(Date.now() - newest).toBeLessThan(3600_000);
  });

  it("follows vitest's fake timers: a sandbox runs when the faked time has passed", async () => {
    vi.useFakeTimers({ now: new Date('2030-05-01T12:00:00Z') });
    try {
      const fake = await createFake({ auth: 'none', fixture: 'empty' });
      const sandbox = await fake.service.startSandbox(null);
      expect(sandbox.created_at.startsWith('2030-05-01T12:00:00.')).toBe(true);
      vi.advanceTimersByTime(2000);
      expect((await fake.service.getSandboxes([sandbox.id]))[0]!.status).toBe('RUNNING');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('seed', () => {
  it('makes every generated id, key and timestamp repeatable', async () => {
    expect(await scenario(11)).toEqual(await scenario(11));
  });

  it('makes different data for a different seed', async () => {
    expect((await scenario(11)).sandboxes[0]!.id).not.toBe((await scenario(12)).sandboxes[0]!.id);
  });
});

describe('reset()', () => {
  it('restores the fixture and the manual clock', async () => {
    const fake = await createFake({ fixture: 'empty', auth: 'none', clock: 'manual' });
    const initial = await fake.snapshot();
    const start = fake.clock.now();
    await fake.fetch(new Request('http://localhost:3000/api/v1/sandboxes', { method: 'POST' }));
    fake.clock.advance(1000);
    await fake.reset();
    expect(await fake.snapshot()).toEqual(initial);
    expect(fake.clock.now()).toBe(start);
  });

  it('loads another fixture when asked', async () => {
    const fake = await createFake({ fixture: 'empty' });
    await fake.reset({ fixture: 'default' });
    expect((await fake.snapshot()).conversations.length).toBeGreaterThan(10);
  });
});

describe('options', () => {
  it('are validated, with an error naming each bad option', async () => {
    await expect(createFake({ baseUrl: 'not a url', auth: 'some' as 'all' })).rejects.toThrow(
      /^Failed to create the fake: invalid options \(baseUrl: Invalid URL; auth: Invalid option: expected one of "all"\|"legacy"\|"none"\)\. See "Options" in the README\.$/,
    );
    await expect(createFake({ timings: { sandboxStartMs: -1 } })).rejects.toThrow(/timings/);
  });

  it('take custom timings per step', async () => {
    const fake = await createFake({ timings: { sandboxStartMs: 50 } });
    expect(fake.timings).toEqual({ sandboxStartMs: 50, startTaskStepMs: 500, agentRunMs: 10_000 });
  });
});
