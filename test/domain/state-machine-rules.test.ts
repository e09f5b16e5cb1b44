/**
 * Rules of the fake's state machines that a mutation sample showed no test held (the domain
 * review): each test here fails when its rule is broken in the code.
 * - a resumed agent goes on from where it paused: its run is shifted past the pause
 *   (software-agent-sdk `local_conversation.py`, `pause`/`run`);
 * - the state file's change log honours removed fields (`unset`): a resumed agent does not come
 *   back paused after a restart;
 * - the last page of a newest-first event search holds the oldest event;
 * - pausing a sandbox in ERROR leaves it in ERROR (OpenHands `sandbox_router.py`, `pause_sandbox`).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFake, type Fake, type Fixture } from '../../src/index.js';
import { StateFileWriter, readStateFile } from '../../src/server/state-file.js';

const APP = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';

/** A running conversation of `fake` (manual clock) and calls on its agent host. */
async function liveConversation(fake: Fake) {
  const json = async (url: string, init: RequestInit = {}) =>
    (await fake.fetch(new Request(url, init))).json() as Promise<Record<string, unknown>>;
  const task = await json(`${APP}/api/v1/app-conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  fake.clock.advance(60_000);
  const [ready] = (await json(`${APP}/api/v1/app-conversations/start-tasks?ids=${task.id}`)) as unknown as {
    app_conversation_id: string;
  }[];
  const [conversation] = (await json(`${APP}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`)) as unknown as {
    id: string;
    session_api_key: string;
  }[];
  const id = conversation!.id;
  const headers = { 'x-session-api-key': conversation!.session_api_key, 'content-type': 'application/json' };
  const agent = (path: string, method = 'GET', body?: unknown) =>
    json(`${AGENT}/api/conversations/${id}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return {
    id,
    send: (text: string) => agent('/events', 'POST', { role: 'user', content: [{ type: 'text', text }], run: true }),
    pause: () => agent('/pause', 'POST'),
    run: () => agent('/run', 'POST'),
    count: async () =>
      (await fake.fetch(new Request(`${AGENT}/api/conversations/${id}/events/count`, { headers }))).json() as Promise<number>,
    search: (query: string) => agent(`/events/search?${query}`) as Promise<{ items: { id: string }[]; next_page_id: string | null }>,
    status: async () =>
      ((await json(`${APP}/api/v1/app-conversations?ids=${id}`)) as unknown as { execution_status: string }[])[0]!.execution_status,
  };
}

describe('POST /api/conversations/{id}/run after /pause', () => {
  it('goes on from where the agent paused: the steps still to come are as far away as they were at the pause', async () => {
    // Realistic timings: a run takes 10 s of the fake's clock, its steps spread over it.
    const fake = await createFake({ baseUrl: APP, agentUrl: AGENT, auth: 'none', fixture: 'empty', clock: 'manual', timings: 'realistic' });
    const c = await liveConversation(fake);
    await c.send('Fix the flaky test');
    fake.clock.advance(3_000);
    await c.pause();
    const atPause = await c.count();
    fake.clock.advance(600_000); // far longer than a whole run
    await c.run();
    // Resumed: only the `running` update is new; the rest of the run is still ahead of the clock.
    expect(await c.count()).toBe(atPause + 1);
    expect(await c.status()).toBe('running');
    fake.clock.advance(60_000);
    expect(await c.status()).toBe('finished');
  });
});

describe('the state file (--state-file)', () => {
  it('replays a removed field: an agent paused then resumed before a crash is not paused after the restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-rules-'));
    const file = join(dir, 'state.json');
    const fake = await createFake({ baseUrl: APP, agentUrl: AGENT, auth: 'none', fixture: 'empty', clock: 'manual', timings: 'realistic' });
    const writer = new StateFileWriter(file);
    await writer.write(await fake.snapshot());
    const written: Promise<void>[] = [];
    fake.onChange((changes, current) => void written.push(writer.record(changes, current)));
    const c = await liveConversation(fake);
    await c.send('Fix the flaky test');
    fake.clock.advance(3_000);
    await c.pause();
    await c.run();
    expect(await c.status()).toBe('running');
    await Promise.all(written);
    // A crash: the snapshot plus its log is all a restart reads (no compaction on close).
    const replayed = (await readStateFile(file)) as Fixture;
    const stored = replayed.conversations.find((conversation) => conversation.id.replaceAll('-', '') === c.id);
    expect(stored).toBeDefined();
    expect(stored).not.toHaveProperty('agent_status');
    expect(stored).not.toHaveProperty('agent_paused_at');
    const restarted = await createFake({
      baseUrl: APP,
      agentUrl: AGENT,
      auth: 'none',
      fixture: replayed,
      clock: 'manual',
      timings: 'realistic',
    });
    expect((await restarted.service.getAppConversations([c.id]))[0]?.id).toBe(c.id);
    await writer.close();
  });
});

describe('GET /api/conversations/{id}/events/search?sort_order=TIMESTAMP_DESC', () => {
  it('pages newest first to the oldest event, whatever the page size: every event once, the last page ends the search', async () => {
    const fake = await createFake({ baseUrl: APP, agentUrl: AGENT, auth: 'none', fixture: 'empty', clock: 'manual', timings: 'instant' });
    const c = await liveConversation(fake);
    await c.send('Fix the flaky test');
    fake.clock.advance(60_000);
    const oldestFirst = (await c.search('limit=100')).items.map((e) => e.id);
    expect(oldestFirst.length).toBeGreaterThan(3);
    for (let limit = 1; limit <= oldestFirst.length; limit++) {
      const seen: string[] = [];
      let page: string | null = null;
      do {
        const answer: { items: { id: string }[]; next_page_id: string | null } = await c.search(
          `sort_order=TIMESTAMP_DESC&limit=${limit}${page ? `&page_id=${page}` : ''}`,
        );
        seen.push(...answer.items.map((e) => e.id));
        page = answer.next_page_id;
      } while (page !== null && seen.length <= oldestFirst.length);
      expect(seen, `pages of ${limit}`).toEqual([...oldestFirst].reverse());
    }
  });
});

describe('fake.service.pauseSandbox', () => {
  it('leaves a sandbox in ERROR as it is: pause is not a way out of ERROR', async () => {
    const fake = await createFake({ fixture: 'empty', clock: 'manual', timings: 'instant' });
    const sandbox = await fake.service.startSandbox(null);
    fake.clock.advance(60_000);
    await fake.service.failSandbox(sandbox.id, 'container died');
    await fake.service.pauseSandbox(sandbox.id);
    const [after] = await fake.service.getSandboxes([sandbox.id]);
    expect(after).toMatchObject({ id: sandbox.id, status: 'ERROR' });
  });
});
