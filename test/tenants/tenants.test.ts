/**
 * Tenants: parallel workers on one fake, each in its own state, clock, faults and journal, named by
 * the `X-Fakehands-Tenant` header or a `fakehands_tenant` cookie (no name: the default tenant).
 */
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { startCli } from '../support/cli.js';

const BASE = 'http://localhost:3000';

describe('fake.tenant(name)', () => {
  it('is a fake of its own: state, clock, faults and journal apart from the default tenant and from each other', async () => {
    const fake = await createFake({ baseUrl: BASE, auth: 'none', fixture: 'empty', timings: 'instant' });
    const a = await fake.tenant('worker-a');
    const b = await fake.tenant('worker-b');
    await a.service.startSandbox(null);
    await a.service.startSandbox(null);
    await b.service.startSandbox(null);
    const count = async (core: typeof fake | typeof a) =>
      ((await (await core.fetch(new Request(`${BASE}/api/v1/sandboxes/search`))).json()) as { items: unknown[] }).items.length;
    expect([await count(fake), await count(a), await count(b)]).toEqual([0, 2, 1]);
    await a.clock.advance(3_600_000);
    expect(a.clock.now() - b.clock.now()).toBeGreaterThanOrEqual(3_600_000);
    a.faults.add({ kind: 'status', method: 'POST', path: '/api/v1/sandboxes', status: 503 });
    expect((await a.fetch(new Request(`${BASE}/api/v1/sandboxes`, { method: 'POST' }))).status).toBe(503);
    expect((await b.fetch(new Request(`${BASE}/api/v1/sandboxes`, { method: 'POST' }))).status).toBe(200);
    expect(a.journal.entries().map((e) => e.path)).toEqual(['/api/v1/sandboxes/search', '/api/v1/sandboxes']);
    expect(fake.journal.entries().map((e) => e.path)).toEqual(['/api/v1/sandboxes/search']);
    await a.reset();
    expect(await count(a)).toBe(0);
    expect(await count(b)).toBe(2);
    expect(await fake.tenant('worker-a')).not.toBe(a);
    expect((await fake.tenant('worker-a')).service).toBe(a.service);
  });

  it('refuses a bad name and one tenant too many, creating nothing', async () => {
    const fake = await createFake({ baseUrl: BASE, auth: 'none', fixture: 'empty', maxTenants: 1 });
    await expect(fake.tenant('no spaces')).rejects.toMatchObject({
      reason: 'bad_request',
      detail: expect.stringMatching(/^Invalid tenant name "no spaces": 1-64 letters/),
    });
    await expect(fake.tenant('x'.repeat(65))).rejects.toMatchObject({ reason: 'bad_request' });
    await fake.tenant('one');
    await expect(fake.tenant('two')).rejects.toMatchObject({
      reason: 'too_many',
      detail: expect.stringMatching(/^Too many tenants: this fake holds at most 1/),
    });
    const listed = await (await fake.fetch(new Request(`${BASE}/_fakehands/tenants`))).json();
    expect(listed).toMatchObject({ tenants: [{ name: 'one' }], max_tenants: 1 });
  });

  it('the msw handlers honour the header, and the default tenant is the fake as it always was', async () => {
    const fake = await createFake({ baseUrl: BASE, auth: 'none', fixture: 'empty', timings: 'instant' });
    const created = await fake.fetch(new Request(`${BASE}/api/v1/sandboxes`, { method: 'POST', headers: { 'x-fakehands-tenant': 't1' } }));
    expect(created.status).toBe(200);
    expect((await (await fake.tenant('t1')).service.searchSandboxes({ offset: 0, limit: 100 })).items).toHaveLength(1);
    expect((await fake.service.searchSandboxes({ offset: 0, limit: 100 })).items).toHaveLength(0);
    expect((await (await fake.tenant('default')).service.searchSandboxes({ offset: 0, limit: 100 })).items).toHaveLength(0);
  });
});

describe("a tenant's agent socket", () => {
  it('is served in-process (msw ws.link) from the tenant named by ?fakehands_tenant=, and over a real server by the header', async () => {
    const { setupServer } = await import('msw/node');
    const { default: WebSocket } = await import('ws');
    const fake = await createFake({ baseUrl: BASE, agentUrl: 'http://localhost:3001', auth: 'none', fixture: 'empty', timings: 'instant' });
    const tenant = await fake.tenant('sockets');
    const task = (await (
      await tenant.fetch(
        new Request(`${BASE}/api/v1/app-conversations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Hello' }] } }),
        }),
      )
    ).json()) as { id: string };
    const [ready] = (await (await tenant.fetch(new Request(`${BASE}/api/v1/app-conversations/start-tasks?ids=${task.id}`))).json()) as {
      app_conversation_id: string;
    }[];
    const [conversation] = (await (
      await tenant.fetch(new Request(`${BASE}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`))
    ).json()) as { id: string; session_api_key: string }[];
    const previous = (globalThis as { WebSocket?: unknown }).WebSocket;
    Object.assign(globalThis, { WebSocket });
    const server = setupServer(...fake.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const first = (query: string) =>
        new Promise<Record<string, unknown> | { closed: number }>((resolve) => {
          const socket = new (globalThis as unknown as { WebSocket: typeof globalThis.WebSocket }).WebSocket(
            `ws://localhost:3001/sockets/events/${conversation!.id}?session_api_key=${conversation!.session_api_key}${query}`,
          );
          socket.addEventListener('message', (event) => {
            resolve(JSON.parse(String(event.data)) as Record<string, unknown>);
            socket.close();
          });
          socket.addEventListener('close', (event) => resolve({ closed: event.code }));
        });
      expect(await first('&fakehands_tenant=sockets')).toMatchObject({ kind: 'ConversationStateUpdateEvent', key: 'full_state' });
      // The default tenant has no such conversation: under --auth none its local agent server takes the key, and finds nothing (4004).
      expect(await first('')).toEqual({ closed: 4004 });
    } finally {
      server.close();
      Object.assign(globalThis, { WebSocket: previous });
    }
  });
});

describe('tenants on one server', () => {
  it('8 workers in parallel, each creating, pausing, faulting, moving its clock, running an agent and resetting in its own tenant, see exactly their own state (events too)', async () => {
    const cli = await startCli(['--quiet', '--auth', 'none', '--fixture', 'empty', '--timings', 'instant']);
    const worker = async (n: number) => {
      const headers = { 'x-fakehands-tenant': `worker-${n}`, 'content-type': 'application/json' };
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${cli.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const ids: string[] = [];
      for (let i = 0; i <= n; i++) ids.push((await call('POST', '/api/v1/sandboxes')).body.id as string);
      await call('POST', `/api/v1/sandboxes/${ids[0]}/pause`);
      await call('POST', '/_fakehands/faults', { kind: 'status', method: 'GET', path: '/api/v1/sandbox-specs/search', status: 418 });
      await call('POST', '/_fakehands/clock', { advance_ms: n * 60_000 });
      const seen = (await call('GET', '/api/v1/sandboxes/search')).body.items as { id: string; status: string }[];
      const faulted = (await call('GET', '/api/v1/sandbox-specs/search')).status;
      const journal = ((await call('GET', '/_fakehands/requests')).body.requests as { path: string }[]).map((e) => e.path);
      const clock = (await call('GET', '/_fakehands/clock')).body.now as string;
      // An agent's events: a conversation whose log only this tenant holds.
      const task = (
        await call('POST', '/api/v1/app-conversations', {
          initial_message: { role: 'user', content: [{ type: 'text', text: `Task of worker ${n}` }] },
        })
      ).body.id as string;
      const started = await fetch(`${cli.url}/api/v1/app-conversations/start-tasks?ids=${task}`, { headers });
      const conversation = ((await started.json()) as { app_conversation_id: string }[])[0]!.app_conversation_id;
      const events = (await call('GET', `/api/v1/conversation/${conversation}/events/count`)).body as unknown as number;
      const elsewhere = (await (
        await fetch(`${cli.url}/api/v1/conversation/${conversation}/events/count`, {
          headers: { 'x-fakehands-tenant': `worker-${(n + 1) % 8}` },
        })
      ).json()) as number;
      await call('POST', '/_fakehands/reset', {});
      const afterReset = ((await call('GET', '/api/v1/sandboxes/search')).body.items as unknown[]).length;
      return { n, seen, ids, faulted, journal, clock, afterReset, events, elsewhere };
    };
    const results = await Promise.all(Array.from({ length: 8 }, (_, n) => worker(n)));
    for (const r of results) {
      expect(r.seen.map((s) => s.id).sort()).toEqual([...r.ids].sort());
      expect(r.events).toBeGreaterThan(2);
      expect(r.elsewhere).toBe(0);
      expect(r.seen.filter((s) => s.status === 'PAUSED').map((s) => s.id)).toEqual([r.ids[0]]);
      expect(r.faulted).toBe(418);
      expect(r.journal.filter((p) => p === '/api/v1/sandboxes')).toHaveLength(r.n + 1);
      expect(r.afterReset).toBe(0);
    }
    const clocks = results.map((r) => Date.parse(r.clock));
    expect(new Set(clocks).size).toBe(8);
    // The default tenant saw none of it.
    expect(((await (await fetch(`${cli.url}/api/v1/sandboxes/search`)).json()) as { items: unknown[] }).items).toEqual([]);
    expect(((await (await fetch(`${cli.url}/api/v1/sandbox-specs/search`)).json()) as { items: unknown[] }).items).toHaveLength(1);
    const tenants = (await (await fetch(`${cli.url}/_fakehands/tenants`)).json()) as { tenants: { name: string }[] };
    expect(tenants.tenants.map((t) => t.name)).toEqual(Array.from({ length: 8 }, (_, n) => `worker-${n}`));
  }, 60_000);

  it('takes the tenant from a fakehands_tenant cookie (a browser page pinned with one cookie)', async () => {
    const cli = await startCli(['--quiet', '--auth', 'none', '--fixture', 'empty', '--timings', 'instant']);
    expect(
      (await fetch(`${cli.url}/api/v1/sandboxes`, { method: 'POST', headers: { cookie: 'theme=dark; fakehands_tenant=page-1' } })).status,
    ).toBe(200);
    const page = (await (await fetch(`${cli.url}/api/v1/sandboxes/search`, { headers: { cookie: 'fakehands_tenant=page-1' } })).json()) as {
      items: unknown[];
    };
    const other = (await (await fetch(`${cli.url}/api/v1/sandboxes/search`, { headers: { 'x-fakehands-tenant': 'page-2' } })).json()) as {
      items: unknown[];
    };
    expect([page.items.length, other.items.length]).toEqual([1, 0]);
  });

  it('answers a bad tenant name 400 and one tenant too many 429, as JSON, creating nothing; tenants are listed and deleted from the default tenant only', async () => {
    const cli = await startCli(['--quiet', '--auth', 'none', '--fixture', 'empty', '--max-tenants', '2']);
    const bad = await fetch(`${cli.url}/api/v1/sandboxes`, { method: 'POST', headers: { 'x-fakehands-tenant': '../etc' } });
    expect([bad.status, await bad.json()]).toEqual([
      400,
      { detail: 'Invalid tenant name "../etc": 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit' },
    ]);
    for (const name of ['a', 'b'])
      expect((await fetch(`${cli.url}/api/v1/sandboxes/search`, { headers: { 'x-fakehands-tenant': name } })).status).toBe(200);
    const many = await fetch(`${cli.url}/api/v1/sandboxes`, { method: 'POST', headers: { 'x-fakehands-tenant': 'c' } });
    expect(many.status).toBe(429);
    expect(((await many.json()) as { detail: string }).detail).toMatch(/^Too many tenants: this fake holds at most 2/);
    expect(await (await fetch(`${cli.url}/_fakehands/tenants`, { headers: { 'x-fakehands-tenant': 'a' } })).json()).toEqual({
      detail: 'Tenants are listed from the default tenant only',
    });
    expect(
      ((await (await fetch(`${cli.url}/_fakehands/tenants`)).json()) as { tenants: { name: string }[] }).tenants.map((t) => t.name),
    ).toEqual(['a', 'b']);
    expect(await (await fetch(`${cli.url}/_fakehands/tenants/a`, { method: 'DELETE' })).json()).toEqual({ deleted: true });
    expect((await fetch(`${cli.url}/_fakehands/tenants/a`, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(`${cli.url}/api/v1/sandboxes`, { method: 'POST', headers: { 'x-fakehands-tenant': 'c' } })).status).toBe(200);
  });
});

describe('tenants and --state-file', () => {
  it('keeps every tenant across a restart (FILE.tenants/NAME.json), and forgets a deleted one', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'fakehands-tenants-')), 'state.json');
    const args = ['--quiet', '--auth', 'none', '--fixture', 'empty', '--timings', 'instant', '--state-file', file];
    const first = await startCli(args);
    const made = async (url: string, tenant: string) =>
      (
        (await (await fetch(`${url}/api/v1/sandboxes`, { method: 'POST', headers: { 'x-fakehands-tenant': tenant } })).json()) as {
          id: string;
        }
      ).id;
    const ids = async (url: string, tenant?: string) =>
      (
        (await (await fetch(`${url}/api/v1/sandboxes/search`, { headers: tenant ? { 'x-fakehands-tenant': tenant } : {} })).json()) as {
          items: { id: string }[];
        }
      ).items.map((s) => s.id);
    const kept = await made(first.url, 'keep');
    await made(first.url, 'drop');
    expect((await fetch(`${first.url}/_fakehands/tenants/drop`, { method: 'DELETE' })).status).toBe(200);
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(`${file}.tenants/keep.json`)).toBe(true);
    expect(existsSync(`${file}.tenants/drop.json`)).toBe(false);
    const second = await startCli(args);
    expect(await ids(second.url, 'keep')).toEqual([kept]);
    expect(await ids(second.url, 'drop')).toEqual([]);
    expect(await ids(second.url)).toEqual([]);
  }, 30_000);
});
