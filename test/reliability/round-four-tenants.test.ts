/**
 * Reliability, round four (issue 29), tenants, cookies and secrets: each finding reproduced as a
 * test first — a malformed tenant cookie, secrets the state missed, a live tenant dropped as idle,
 * tenants that shared their ids and keys — and what now holds instead.
 */
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFake, createFakeCore } from '../../src/index.js';
import { REDACTED, unmaskedSecrets } from '../../src/domain/store/redact.js';
import { StateFileWriter, createFakeServer, startFakeServers } from '../../src/server.js';

const KEY = 'round-four-key';

/** Waits until `predicate` holds, checking every 20 ms, for at most `ms`. */
async function eventually(predicate: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`the condition did not hold within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One raw HTTP/1.1 request over a socket, answered with its status and body (a socket upgrade included). */
function raw(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, url), { headers });
    req.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, body: '' });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a malformed fakehands_tenant cookie (finding 4)', () => {
  const MALFORMED = ['%', '%E0%A4%A', '%ZZ'];

  it('finding 4: answers 400 with a FastAPI detail naming the cookie on every route, health and the agent host included, never 500', async () => {
    const servers = await startFakeServers({ fake: { apiKey: KEY, fixture: 'empty', timings: 'instant' } });
    try {
      for (const value of MALFORMED) {
        const cookie = `other=1; fakehands_tenant=${value}`;
        for (const [base, path] of [
          [servers.url, '/health'],
          [servers.url, '/api/v1/sandboxes/search'],
          [servers.url, '/_fakehands/state'],
          [servers.agentUrl, '/alive'],
          [servers.agentUrl, '/api/conversations/x/events/search'],
        ] as const) {
          const response = await fetch(`${base}${path}`, { headers: { cookie, 'x-session-api-key': KEY } });
          expect([value, path, response.status]).toEqual([value, path, 400]);
          expect(await response.json()).toEqual({
            detail: `Invalid tenant name ${JSON.stringify(value)}: 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
          });
        }
      }
      // Nothing was created, and the fake still answers.
      expect(await (await fetch(`${servers.url}/_fakehands/tenants`, { headers: { 'x-session-api-key': KEY } })).json()).toMatchObject({
        tenants: [],
      });
      expect((await fetch(`${servers.url}/health`)).status).toBe(200);
    } finally {
      await servers.close();
    }
  });

  it('finding 4: a socket upgrade with one gets a clean HTTP 400 answer, not a hang-up', async () => {
    const servers = await startFakeServers({ fake: { apiKey: KEY, fixture: 'empty', timings: 'instant' } });
    try {
      for (const value of MALFORMED) {
        const answer = await raw(servers.agentUrl, '/sockets/events/abc?session_api_key=x', {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          cookie: `fakehands_tenant=${value}`,
        });
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body)).toEqual({
          detail: `Invalid tenant name ${JSON.stringify(value)}: 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
        });
      }
    } finally {
      await servers.close();
    }
  });

  it('finding 4: a well-formed percent-encoded cookie still names its tenant', async () => {
    const servers = await startFakeServers({ fake: { apiKey: KEY, fixture: 'empty', timings: 'instant' } });
    try {
      const response = await fetch(`${servers.url}/api/v1/sandboxes`, {
        method: 'POST',
        headers: { cookie: 'fakehands_tenant=worker%2D1', 'x-session-api-key': KEY },
      });
      expect(response.status).toBe(200);
      expect(
        (
          (await (await fetch(`${servers.url}/_fakehands/tenants`, { headers: { 'x-session-api-key': KEY } })).json()) as {
            tenants: { name: string }[];
          }
        ).tenants.map((t) => t.name),
      ).toEqual(['worker-1']);
    } finally {
      await servers.close();
    }
  });
});

describe('ids and session keys of tenants (finding 10)', () => {
  const BASE = 'http://localhost:3000';
  const AGENT = 'http://localhost:3001';
  type Core = Awaited<ReturnType<typeof createFake>>;
  /** Starts a conversation on `core` and waits for it: its id and its sandbox's session key. */
  const conversationOf = async (core: Core | Awaited<ReturnType<Core['tenant']>>) => {
    const task = (await (
      await core.fetch(
        new Request(`${BASE}/api/v1/app-conversations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Hello' }] } }),
        }),
      )
    ).json()) as { id: string };
    const [ready] = (await (await core.fetch(new Request(`${BASE}/api/v1/app-conversations/start-tasks?ids=${task.id}`))).json()) as {
      app_conversation_id: string;
    }[];
    const [conversation] = (await (
      await core.fetch(new Request(`${BASE}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`))
    ).json()) as { id: string; sandbox_id: string; session_api_key: string }[];
    return conversation!;
  };

  it("finding 10: a tenant's conversation and sandbox ids and session key are not the default tenant's, and its key opens nothing there", async () => {
    // Keys checked on the agent host (`legacy`): under `none` it is one local agent server that takes any key.
    const fake = await createFake({ baseUrl: BASE, agentUrl: AGENT, auth: 'legacy', apiKey: KEY, fixture: 'empty', timings: 'instant' });
    const mine = await conversationOf(fake);
    const theirs = await conversationOf(await fake.tenant('ta'));
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs.sandbox_id).not.toBe(mine.sandbox_id);
    expect(theirs.session_api_key).not.toBe(mine.session_api_key);
    // The agent host without a tenant is the default tenant's: ta's key opens none of its conversations.
    const opened = await fake.fetch(
      new Request(`${AGENT}/api/conversations/${mine.id}`, { headers: { 'x-session-api-key': theirs.session_api_key } }),
    );
    expect(opened.status).toBe(401);
    const own = await fake.fetch(
      new Request(`${AGENT}/api/conversations/${mine.id}`, { headers: { 'x-session-api-key': mine.session_api_key } }),
    );
    expect(own.status).toBe(200);
  });

  it("finding 10: the fixture's sandboxes have session keys of each tenant's own, the same each time the tenant is made", async () => {
    const fake = await createFake({ baseUrl: BASE, agentUrl: AGENT, auth: 'none', fixture: 'default', timings: 'instant' });
    const keysOf = async (core: Core | Awaited<ReturnType<Core['tenant']>>) =>
      (await core.snapshot()).sandboxes.map((s) => s.session_api_key);
    const mine = await keysOf(fake);
    const ta = await keysOf(await fake.tenant('ta'));
    const tb = await keysOf(await fake.tenant('tb'));
    expect(mine.length).toBeGreaterThan(0);
    expect(ta).toHaveLength(mine.length);
    expect(new Set([...mine, ...ta, ...tb]).size).toBe(mine.length * 3);
    // Deterministic: the same tenant, made again (or reset), has the same keys and draws the same ids.
    const first = await conversationOf(await fake.tenant('ta'));
    expect(await (await fake.fetch(new Request(`${BASE}/_fakehands/tenants/ta`, { method: 'DELETE' }))).json()).toEqual({ deleted: true });
    expect(await keysOf(await fake.tenant('ta'))).toEqual(ta);
    expect((await conversationOf(await fake.tenant('ta'))).id).toBe(first.id);
    await (await fake.tenant('ta')).reset();
    expect(await keysOf(await fake.tenant('ta'))).toEqual(ta);
    // The default tenant is the fake as it always was: the fixture's own keys.
    expect(mine).toEqual(
      (await createFake({ baseUrl: BASE, fixture: 'default' }).then((f) => f.snapshot())).sandboxes.map((s) => s.session_api_key),
    );
  });
});

describe('secrets in settings, the state and the journal (finding 7)', () => {
  const SECRETS = ['sk-condenser-secret', 'env-secret-one', 'env-secret-two', 'url-secret-three', 'journal-secret-four'];
  const settings = {
    agent_settings_diff: {
      llm: { model: 'anthropic/claude-sonnet-4-5-20250929' },
      condenser: { type: 'llm', llm: { model: 'gpt-4o-mini', api_key: 'sk-condenser-secret' } },
      mcp_config: {
        mcpServers: {
          search: { command: 'npx', args: ['-y', 'search-mcp'], env: { SEARCH_TOKEN: 'env-secret-one', REGION: 'env-secret-two' } },
          remote: { url: 'https://mcp.example.com/sse?key=url-secret-three&region=eu' },
        },
      },
    },
  };

  it('finding 7: a condenser LLM key, mcpServers.*.env values and a ?key= in a server URL reach neither the state file, GET /_fakehands/state, GET /api/v1/settings nor the journal', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'fakehands-r4-'));
    const fake = await createFakeCore({ clock: 'system', apiKey: KEY, fixture: 'empty', timings: 'instant' });
    const server = createFakeServer(fake, { stateFile: new StateFileWriter(join(folder, 'state.json')) });
    const url = await server.listen(0, '127.0.0.1');
    const headers = { 'x-session-api-key': KEY, 'content-type': 'application/json' };
    try {
      expect((await fetch(`${url}/api/v1/settings`, { method: 'POST', headers, body: JSON.stringify(settings) })).status).toBe(200);
      expect((await fetch(`${url}/api/v1/sandboxes/search?limit=5&key=journal-secret-four`, { headers })).status).toBe(200);
      const shown = await (await fetch(`${url}/_fakehands/state`, { headers })).text();
      const answered = (await (await fetch(`${url}/api/v1/settings`, { headers })).json()) as { agent_settings: Record<string, unknown> };
      const journal = await (await fetch(`${url}/_fakehands/requests`, { headers })).text();
      await server.close();
      const written = (await Promise.all((await readdir(folder)).map((name) => readFile(join(folder, name), 'utf8')))).join('\n');
      for (const secret of SECRETS) {
        expect([
          secret,
          written.includes(secret),
          shown.includes(secret),
          JSON.stringify(answered).includes(secret),
          journal.includes(secret),
        ]).toEqual([secret, false, false, false, false]);
      }
      // What is shown says a secret was there, and keeps what is not secret. The condenser's `type` and
      // `llm` are no condenser settings' fields (openhands-sdk settings/model.py CondenserSettings): not kept.
      expect(JSON.parse(shown).settings.agent_settings_extra).toEqual({
        mcp_config: {
          mcpServers: {
            // By place: the word after a flag and every query value (the real server answers both as given).
            search: { command: 'npx', args: ['-y', REDACTED], env: { SEARCH_TOKEN: REDACTED, REGION: REDACTED } },
            remote: { url: `https://mcp.example.com/sse?key=${REDACTED}&region=${REDACTED}` },
          },
        },
      });
      expect(answered.agent_settings.mcp_config).toEqual({ sse_servers: [], stdio_servers: [], shttp_servers: [] });
      expect(journal).toContain(`?limit=5&key=${REDACTED}`);
    } finally {
      server.server.listening && (await server.close());
    }
  });

  it("finding 7: a masked secret sent back as it was answered keeps the stored one; a changed one is the client's", () => {
    const stored = settings.agent_settings_diff;
    const answered = {
      condenser: { type: 'llm', llm: { model: 'gpt-4o-mini', api_key: REDACTED } },
      mcp_config: {
        mcpServers: {
          remote: { url: `https://mcp.example.com/sse?key=${REDACTED}&region=eu` },
          search: { env: { SEARCH_TOKEN: 'new-token', REGION: REDACTED } },
        },
      },
    };
    expect(unmaskedSecrets(answered, stored)).toEqual({
      condenser: { type: 'llm', llm: { model: 'gpt-4o-mini', api_key: 'sk-condenser-secret' } },
      mcp_config: {
        mcpServers: {
          remote: { url: 'https://mcp.example.com/sse?key=url-secret-three&region=eu' },
          search: { env: { SEARCH_TOKEN: 'new-token', REGION: 'env-secret-two' } },
        },
      },
    });
  });
});

describe('idle expiry of tenants (finding 9)', () => {
  const IDLE_MS = 300;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('finding 9: a tenant with an open socket is not idle: it, its sandbox and its socket live on; once the socket closes it expires like any other', async () => {
    const { default: WebSocket } = await import('ws');
    const servers = await startFakeServers({ fake: { apiKey: KEY, fixture: 'empty', timings: 'instant', tenantIdleMs: IDLE_MS } });
    const as = (tenant: string) => ({ 'x-session-api-key': KEY, 'x-fakehands-tenant': tenant, 'content-type': 'application/json' });
    const tenantNames = async () =>
      (
        (await (await fetch(`${servers.url}/_fakehands/tenants`, { headers: { 'x-session-api-key': KEY } })).json()) as {
          tenants: { name: string }[];
        }
      ).tenants.map((t) => t.name);
    let socket: InstanceType<typeof WebSocket> | null = null;
    try {
      const task = (await (
        await fetch(`${servers.url}/api/v1/app-conversations`, {
          method: 'POST',
          headers: as('live'),
          body: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Hello' }] } }),
        })
      ).json()) as { id: string };
      const [ready] = (await (
        await fetch(`${servers.url}/api/v1/app-conversations/start-tasks?ids=${task.id}`, { headers: as('live') })
      ).json()) as { app_conversation_id: string }[];
      const [conversation] = (await (
        await fetch(`${servers.url}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`, { headers: as('live') })
      ).json()) as { id: string; sandbox_id: string; session_api_key: string }[];
      const frames: { kind?: string; key?: string }[] = [];
      socket = new WebSocket(
        `${servers.agentUrl.replace(/^http/, 'ws')}/sockets/events/${conversation!.id}?session_api_key=${conversation!.session_api_key}`,
        { headers: { 'x-fakehands-tenant': 'live' } },
      );
      socket.on('message', (data) => frames.push(JSON.parse(String(data)) as { kind?: string }));
      await eventually(() => frames.some((f) => f.key === 'full_state'));
      expect((await fetch(`${servers.url}/api/v1/sandboxes/search`, { headers: as('idle') })).status).toBe(200);
      // Longer than the idle time with no request from `live`: only `idle` is idle.
      await sleep(IDLE_MS * 3);
      expect(await tenantNames()).toEqual(['live']);
      // Its sandbox is still there, its key still opens it, and the socket still hears the agent.
      const sandboxes = (await (await fetch(`${servers.url}/api/v1/sandboxes/search`, { headers: as('live') })).json()) as {
        items: { id: string }[];
      };
      expect(sandboxes.items.map((s) => s.id)).toEqual([conversation!.sandbox_id]);
      const heard = frames.length;
      socket.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'Still there?' }], run: true }));
      await eventually(() => frames.slice(heard).some((f) => f.kind === 'MessageEvent'));
      socket.close();
      await eventually(async () => (await tenantNames()).length === 0, 10_000);
    } finally {
      socket?.terminate();
      await servers.close();
    }
  });
});

describe('a burst of new tenants (finding 11)', () => {
  it('finding 11: is made one at a time, each after the one before is done, so a request to any other tenant never waits for the whole burst', async () => {
    const fake = await createFake({
      baseUrl: 'http://localhost:3000',
      auth: 'none',
      fixture: 'default',
      timings: 'instant',
      maxTenants: 100,
    });
    const steps: string[] = [];
    fake.mounts.tenants!.persistence = {
      fixture: async (name) => {
        steps.push(`making ${name}`);
        return null;
      },
      created: (name) => {
        steps.push(`made ${name}`);
      },
      deleted: async () => undefined,
    };
    const names = Array.from({ length: 40 }, (_, i) => `burst-${i}`);
    const answers = await Promise.all(
      names.map((name) =>
        fake.fetch(new Request('http://localhost:3000/api/v1/sandboxes/search?limit=1', { headers: { 'x-fakehands-tenant': name } })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 200));
    expect(steps).toEqual(names.flatMap((name) => [`making ${name}`, `made ${name}`]));
  });
});
