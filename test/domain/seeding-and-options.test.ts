import { describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';

async function scenario(seed: number) {
  const fake = await createFake({ seed, fixture: 'empty', auth: 'none' });
  const post = (path: string, body?: unknown) => fake.fetch(new Request(`http://localhost:3000${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  }));
  await post('/api/v1/sandboxes');
  await post('/api/conversations', {});
  await post('/api/v1/app-conversations', { selected_repository: 'a/b' });
  fake.clock.advance(30_000);
  return fake.snapshot();
}

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
    const fake = await createFake({ fixture: 'empty', auth: 'none' });
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
