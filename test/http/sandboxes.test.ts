import { describe, expect, it } from 'vitest';
import type { SandboxInfo } from '../../src/schemas/sandbox.js';
import { createFake } from '../../src/index.js';
import { BASE, KEY, call, useFake } from '../support/api.js';

type Page<T> = { items: T[]; next_page_id: string | null };

// A manual clock: these tests look at the exact millisecond a sandbox starts running.
const env = useFake({ fixture: 'empty', clock: 'manual' });

async function startSandbox(query = ''): Promise<SandboxInfo> {
  const { status, body } = await call<SandboxInfo>('POST', `/api/v1/sandboxes${query}`);
  expect(status).toBe(200);
  return body;
}

async function sandbox(id: string): Promise<SandboxInfo | null> {
  const { body } = await call<(SandboxInfo | null)[]>('GET', `/api/v1/sandboxes?id=${encodeURIComponent(id)}`);
  return body[0]!;
}

describe('POST /api/v1/sandboxes', () => {
  it('starts a sandbox from the default spec, STARTING with no key and no URLs', async () => {
    const created = await startSandbox();
    expect(created).toEqual({
      id: expect.stringMatching(/^oh-agent-server-[A-Za-z0-9]{22}$/),
      created_by_user_id: null,
      sandbox_spec_id: 'ghcr.io/openhands/agent-server:1.1.0-python',
      status: 'STARTING',
      session_api_key: null,
      exposed_urls: null,
      created_at: '2025-11-03T09:00:00.000' + created.created_at.slice(23, 26) + 'Z',
      status_detail: null,
    });
  });

  it('is RUNNING with a session key and AGENT_SERVER and VSCODE urls once the start-up time has passed', async () => {
    const { id } = await startSandbox();
    env.fake.clock.advance(env.fake.timings.sandboxStartMs - 1);
    expect((await sandbox(id))!.status).toBe('STARTING');
    env.fake.clock.advance(1);
    const running = (await sandbox(id))!;
    expect(running.status).toBe('RUNNING');
    expect(running.session_api_key).toMatch(/^[A-Za-z0-9]{43}$/);
    const port = Number(running.exposed_urls![0]!.url.split(':').at(-1));
    expect(running.exposed_urls).toEqual([
      { name: 'AGENT_SERVER', url: `http://localhost:${port}`, port },
      // Without an agent host, its own VS Code port, with the token and working dir the real URL has (docker_sandbox_service.py).
      {
        name: 'VSCODE',
        url: expect.stringMatching(new RegExp(`^http://localhost:${port + 1}/\\?tkn=vsc-[0-9a-f]{8}&folder=/`)),
        port: port + 1,
      },
    ]);
  });

  it('uses the sandbox spec named in the sandbox_spec_id query parameter', async () => {
    const { body: specs } = await call<Page<{ id: string }>>('GET', '/api/v1/sandbox-specs/search');
    const created = await startSandbox(`?sandbox_spec_id=${encodeURIComponent(specs.items[0]!.id)}`);
    expect(created.sandbox_spec_id).toBe(specs.items[0]!.id);
  });

  it('answers 404 Not Found for an unknown sandbox spec, and creates nothing', async () => {
    const before = await env.fake.snapshot();
    const { status, body } = await call('POST', '/api/v1/sandboxes?sandbox_spec_id=no-such-image');
    expect(status).toBe(404);
    expect(body).toEqual({ detail: 'Not Found' });
    expect(await env.fake.snapshot()).toEqual(before);
  });

  it('answers STARTING even with the instant timings preset (a container is created, then started), and the next read sees RUNNING', async () => {
    const instant = await createFake({ fixture: 'empty', timings: 'instant', apiKey: KEY });
    const response = await instant.fetch(
      new Request(`${BASE}/api/v1/sandboxes`, { method: 'POST', headers: { 'x-session-api-key': KEY } }),
    );
    expect(response.status).toBe(200);
    const created = (await response.json()) as SandboxInfo;
    expect(created).toMatchObject({ status: 'STARTING', session_api_key: null });
    const read = await instant.fetch(new Request(`${BASE}/api/v1/sandboxes?id=${created.id}`, { headers: { 'x-session-api-key': KEY } }));
    expect(await read.json()).toMatchObject([{ status: 'RUNNING', session_api_key: expect.any(String) }]);
  });
});

describe('POST /api/v1/sandboxes/{sandbox_id}/pause', () => {
  it('pauses a RUNNING sandbox: success, PAUSED, key and URLs withdrawn', async () => {
    const { id } = await startSandbox();
    env.fake.clock.advance(env.fake.timings.sandboxStartMs);
    const { status, body } = await call('POST', `/api/v1/sandboxes/${id}/pause`);
    expect(status).toBe(200);
    expect(body).toEqual({ success: true });
    expect(await sandbox(id)).toMatchObject({ status: 'PAUSED', session_api_key: null, exposed_urls: null });
  });

  it('pauses a STARTING sandbox, which then stays PAUSED however much time passes', async () => {
    const { id } = await startSandbox();
    expect((await call('POST', `/api/v1/sandboxes/${id}/pause`)).status).toBe(200);
    env.fake.clock.advance(60_000);
    expect((await sandbox(id))!.status).toBe('PAUSED');
  });

  it('pausing a PAUSED sandbox succeeds and changes nothing', async () => {
    const { id } = await startSandbox();
    await call('POST', `/api/v1/sandboxes/${id}/pause`);
    const before = await env.fake.snapshot();
    const { status, body } = await call('POST', `/api/v1/sandboxes/${id}/pause`);
    expect([status, body]).toEqual([200, { success: true }]);
    expect(await env.fake.snapshot()).toEqual(before);
  });

  it('pausing an unknown sandbox answers 404 Not Found', async () => {
    const { status, body } = await call('POST', '/api/v1/sandboxes/oh-agent-server-nope/pause');
    expect(status).toBe(404);
    expect(body).toEqual({ detail: 'Not Found' });
  });

  it('pausing a sandbox in ERROR answers 200 and leaves it in ERROR: the real router answers only 200 or 404 (sandbox_router.py, pause_sandbox)', async () => {
    const { id } = await startSandbox();
    await env.fake.service.failSandbox(id);
    const before = await env.fake.snapshot();
    const { status, body } = await call('POST', `/api/v1/sandboxes/${id}/pause`);
    expect([status, body]).toEqual([200, { success: true }]);
    expect(await env.fake.snapshot()).toEqual(before);
    expect(await sandbox(id)).toMatchObject({ status: 'ERROR', status_detail: 'Container exited unexpectedly (exit code 137)' });
  });
});

describe('POST /api/v1/sandboxes/{sandbox_id}/resume', () => {
  it('resumes a PAUSED sandbox: STARTING at once, RUNNING after the start-up time', async () => {
    const { id } = await startSandbox();
    await call('POST', `/api/v1/sandboxes/${id}/pause`);
    const { status, body } = await call('POST', `/api/v1/sandboxes/${id}/resume`);
    expect([status, body]).toEqual([200, { success: true }]);
    expect((await sandbox(id))!.status).toBe('STARTING');
    env.fake.clock.advance(env.fake.timings.sandboxStartMs);
    expect((await sandbox(id))!.status).toBe('RUNNING');
  });

  it('resuming a STARTING sandbox succeeds and does not restart its start-up: it is RUNNING when it would have been', async () => {
    const { id } = await startSandbox();
    env.fake.clock.advance(env.fake.timings.sandboxStartMs - 1);
    const before = await env.fake.snapshot();
    expect(await call('POST', `/api/v1/sandboxes/${id}/resume`)).toMatchObject({ status: 200, body: { success: true } });
    expect(await env.fake.snapshot()).toEqual(before);
    env.fake.clock.advance(1);
    expect((await sandbox(id))!.status).toBe('RUNNING');
  });

  it('resuming a RUNNING sandbox succeeds and changes nothing', async () => {
    const { id } = await startSandbox();
    env.fake.clock.advance(env.fake.timings.sandboxStartMs);
    const before = await env.fake.snapshot();
    const { status, body } = await call('POST', `/api/v1/sandboxes/${id}/resume`);
    expect([status, body]).toEqual([200, { success: true }]);
    expect(await env.fake.snapshot()).toEqual(before);
  });

  it('resuming a sandbox in ERROR restarts it and clears its status_detail', async () => {
    const { id } = await startSandbox();
    await env.fake.service.failSandbox(id, 'ImagePullBackOff');
    expect(await sandbox(id)).toMatchObject({ status: 'ERROR', status_detail: 'ImagePullBackOff' });
    expect((await call('POST', `/api/v1/sandboxes/${id}/resume`)).status).toBe(200);
    expect(await sandbox(id)).toMatchObject({ status: 'STARTING', status_detail: null });
  });

  it('resuming an unknown sandbox answers 404 Not Found', async () => {
    const { status, body } = await call('POST', '/api/v1/sandboxes/nope/resume');
    expect([status, body]).toEqual([404, { detail: 'Not Found' }]);
  });
});

describe('agent ports', () => {
  const portOf = (s: SandboxInfo) => s.exposed_urls!.find((u) => u.name === 'AGENT_SERVER')!.port;

  it("a sandbox created after a delete and a reload never shares a live sandbox's port", async () => {
    const created = [await startSandbox(), await startSandbox(), await startSandbox()];
    await call('DELETE', `/api/v1/sandboxes/${created[0]!.id}?sandbox_id=${created[0]!.id}`);
    // A reload: the kept state becomes the fixture of a new fake (what --state-file and persist do).
    const reloaded = await createFake({ apiKey: KEY, fixture: await env.fake.snapshot(), clock: 'manual', timings: 'instant' });
    const fresh = await reloaded.service.startSandbox(null);
    await reloaded.service.startSandbox(null);
    const all = (await reloaded.service.searchSandboxes({ offset: 0, limit: 100 })).items;
    const ports = all.map((s) => (s.status === 'RUNNING' ? portOf(s) : null));
    expect(ports.every((p) => p !== null)).toBe(true);
    expect(new Set(ports).size).toBe(all.length);
    expect(all.map((s) => s.id)).toContain(fresh.id);
  });

  it('a state reloaded with the same seed draws new ids instead of answering 500 for ids already taken', async () => {
    await startSandbox();
    await startSandbox();
    const reloaded = await createFake({ apiKey: KEY, fixture: await env.fake.snapshot(), clock: 'manual', timings: 'instant' });
    const before = (await reloaded.service.searchSandboxes({ offset: 0, limit: 100 })).items.map((s) => s.id);
    const again = [await reloaded.service.startSandbox(null), await reloaded.service.startSandbox(null)];
    expect(again.map((s) => before.includes(s.id))).toEqual([false, false]);
  });
});

describe('DELETE /api/v1/sandboxes/{id}', () => {
  it('deletes the sandbox named by ?sandbox_id=: success, then MISSING: gone from search, null in batch, 404 on pause and resume', async () => {
    const { id } = await startSandbox();
    expect(await call('DELETE', `/api/v1/sandboxes/${id}?sandbox_id=${id}`)).toMatchObject({ status: 200, body: { success: true } });
    expect((await call<Page<SandboxInfo>>('GET', '/api/v1/sandboxes/search')).body.items).toEqual([]);
    expect(await sandbox(id)).toBeNull();
    expect((await call('POST', `/api/v1/sandboxes/${id}/pause`)).status).toBe(404);
    expect((await call('POST', `/api/v1/sandboxes/${id}/resume`)).status).toBe(404);
  });

  it('deleting an unknown sandbox answers 404 Not Found', async () => {
    expect(await call('DELETE', '/api/v1/sandboxes/nope?sandbox_id=nope')).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
  });

  it('reads the query parameter sandbox_id, not the path: without it 422 missing, and the path names nothing (sandbox_router.py, delete_sandbox)', async () => {
    const { id } = await startSandbox();
    expect(await call('DELETE', `/api/v1/sandboxes/${id}`)).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['query', 'sandbox_id'], msg: 'Field required', input: null }] },
    });
    expect((await call('DELETE', `/api/v1/sandboxes/anything?sandbox_id=${id}`)).status).toBe(200);
    expect(await sandbox(id)).toBeNull();
  });
});

describe('GET /api/v1/sandboxes/search', () => {
  it('lists sandboxes newest first, page by page with next_page_id', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await startSandbox()).id);
      env.fake.clock.advance(10);
    }
    const seen: string[] = [];
    let pageId: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=2${pageId ? `&page_id=${pageId}` : ''}`;
      const { status, body } = await call<Page<SandboxInfo>>('GET', `/api/v1/sandboxes/search${query}`);
      expect(status).toBe(200);
      seen.push(...body.items.map((s) => s.id));
      pageId = body.next_page_id;
      pages++;
    } while (pageId !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('answers an empty page with a null next_page_id when there is nothing', async () => {
    expect(await call('GET', '/api/v1/sandboxes/search')).toMatchObject({ status: 200, body: { items: [], next_page_id: null } });
  });

  it('rejects a limit above 100 and below 1 with 422 less_than_equal / greater_than', async () => {
    expect((await call('GET', '/api/v1/sandboxes/search?limit=101')).body).toEqual({
      detail: [
        {
          type: 'less_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be less than or equal to 100',
          input: '101',
          ctx: { le: 100 },
        },
      ],
    });
    expect((await call('GET', '/api/v1/sandboxes/search?limit=0')).body).toEqual({
      detail: [{ type: 'greater_than', loc: ['query', 'limit'], msg: 'Input should be greater than 0', input: '0', ctx: { gt: 0 } }],
    });
  });

  it('rejects a limit that is not an integer with 422 int_parsing', async () => {
    const { status, body } = await call('GET', '/api/v1/sandboxes/search?limit=ten');
    expect(status).toBe(422);
    expect(body).toEqual({
      detail: [
        {
          type: 'int_parsing',
          loc: ['query', 'limit'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'ten',
        },
      ],
    });
  });
});

describe('GET /api/v1/sandboxes', () => {
  it('answers an array aligned with the ids asked for, null for each missing one', async () => {
    const a = await startSandbox();
    const b = await startSandbox();
    const { status, body } = await call<(SandboxInfo | null)[]>('GET', `/api/v1/sandboxes?id=${b.id}&id=missing&id=${a.id}`);
    expect(status).toBe(200);
    expect(body.map((s) => s?.id ?? null)).toEqual([b.id, null, a.id]);
  });

  it('requires at least the id parameter: 422 missing', async () => {
    expect((await call('GET', '/api/v1/sandboxes')).body).toEqual({
      detail: [{ type: 'missing', loc: ['query', 'id'], msg: 'Field required', input: null }],
    });
  });

  it('accepts at most 99 ids: the real route asserts fewer than 100 and crashes (500) on 100; here 422 too_long, a declared difference', async () => {
    const query = (n: number) => Array.from({ length: n }, (_, i) => `id=s${i}`).join('&');
    expect((await call('GET', `/api/v1/sandboxes?${query(99)}`)).status).toBe(200);
    const { status, body } = await call<{ detail: { type: string; loc: unknown[]; msg: string }[] }>(
      'GET',
      `/api/v1/sandboxes?${query(100)}`,
    );
    expect(status).toBe(422);
    expect(body.detail[0]).toMatchObject({
      type: 'too_long',
      loc: ['query', 'id'],
      msg: 'List should have at most 99 items after validation, not 100',
    });
  });
});
