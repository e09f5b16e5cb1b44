/**
 * MCP servers' secrets, found by where they sit, never leave the fake: whatever a header is called
 * (`X-Auth`, `Ocp-Apim-Subscription-Key`), a URL's password (one over 65,536 characters included),
 * query and fragment (`#access_token=`), the values of a stdio server's flags (`--key X`, `-k X`,
 * `--api-key=X`) and its environment, in the settings read back (the agent host's
 * `GET /api/settings`, the app server's `GET /api/settings` and `/api/v1/settings`), the snapshot
 * (`GET /_fakehands/state`) and the state file with its log.
 *
 * The real agent server masks a server's `headers` and `env` whole
 * (openhands/sdk/mcp/config.py, `MCPServer._serialize_secret_mapping`: every value `**********`,
 * keys kept) and answers `url` and `args` as given; the fake masks those by place too and keeps
 * every shape as the real one answers it (openhands/agent_server/settings_router.py, get_settings).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED as M } from '../../src/domain/store/redact.js';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';
import { StateFileWriter } from '../../src/server/state-file.js';

const LONG_PATH = 'p'.repeat(70_000);
/** A server URL over 65,536 characters with a password in it. */
const LONG_URL = `https://user:PW-long-secret@mcp.example.com/${LONG_PATH}`;
const FRAGMENT_URL = 'https://mcp.example.com/mcp?api-version=2024&tenant=T-query-secret#access_token=FRAG-secret';
const HEADERS = { 'X-Auth': 'HDR-xauth-secret', 'Ocp-Apim-Subscription-Key': 'HDR-apim-secret' };
const ARGS = ['-y', '@example/mcp', '--key', 'ARG-key-secret', '-k', 'ARG-k-secret', '--api-key=ARG-eq-secret'];
const ENV = { ANY_NAME: 'ENV-secret' };
const SECRETS = [
  'PW-long-secret',
  'T-query-secret',
  'FRAG-secret',
  'HDR-xauth-secret',
  'HDR-apim-secret',
  'ARG-key-secret',
  'ARG-k-secret',
  'ARG-eq-secret',
  'ENV-secret',
];
const MASKED_URL = `https://user:${M}@mcp.example.com/${LONG_PATH}`;
const MASKED_FRAGMENT_URL = `https://mcp.example.com/mcp?api-version=${M}&tenant=${M}#access_token=${M}`;
const MASKED_ARGS = ['-y', M, '--key', M, '-k', M, `--api-key=${M}`];

let servers: FakeServers;
let dir: string;
let writer: StateFileWriter;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fakehands-mcp-secrets-'));
  writer = new StateFileWriter(join(dir, 'state.json'));
  servers = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'none' }, server: { stateFile: writer } });
});
afterAll(async () => {
  await servers.close();
  await rm(dir, { recursive: true, force: true });
});

/** A JSON call: status, body and the body's text. */
async function call(base: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** Every secret absent from `text`. */
function expectNoSecret(text: string, where: string) {
  for (const secret of SECRETS) expect(text, `${secret} in ${where}`).not.toContain(secret);
}

/** The snapshot, the state file and its log: none holds a secret. */
async function expectStoredMasked() {
  expectNoSecret((await call(servers.url, 'GET', '/_fakehands/state')).text, 'GET /_fakehands/state');
  await writer.flush();
  expectNoSecret(await readFile(join(dir, 'state.json'), 'utf8'), 'the state file');
  expectNoSecret(await readFile(join(dir, 'state.json.log'), 'utf8').catch(() => ''), 'the state log');
}

describe('GET /api/settings on the agent host (settings_router.py, get_settings)', () => {
  it('answers every MCP secret masked by place, keys and shapes kept; the snapshot and state file hold none', async () => {
    const saved = await call(servers.agentUrl, 'PATCH', '/api/settings', {
      agent_settings_diff: {
        mcp_config: {
          long: { url: LONG_URL },
          hdr: { url: FRAGMENT_URL, headers: HEADERS, auth: { strategy: 'api_key', value: 'AUTH-secret', header_name: 'X-Key' } },
          cli: { command: 'npx', args: ARGS, env: ENV },
        },
      },
    });
    expect(saved.status).toBe(200);
    const read = await call(servers.agentUrl, 'GET', '/api/settings');
    expect(read.status).toBe(200);
    expect((read.body!.agent_settings as { mcp_config: unknown }).mcp_config).toEqual({
      long: { url: MASKED_URL },
      hdr: {
        url: MASKED_FRAGMENT_URL,
        headers: { 'X-Auth': M, 'Ocp-Apim-Subscription-Key': M },
        auth: { strategy: 'api_key', value: M, header_name: 'X-Key' },
      },
      cli: { command: 'npx', args: MASKED_ARGS, env: { ANY_NAME: M } },
    });
    expectNoSecret(read.text, 'GET /api/settings');
    expect(read.text).not.toContain('AUTH-secret');
    expectNoSecret(saved.text, 'the PATCH answer');
    await expectStoredMasked();
    // The answer sent back as read changes nothing: the masks are put back to the stored secrets.
    const again = await call(servers.agentUrl, 'PATCH', '/api/settings', {
      agent_settings_diff: { mcp_config: (read.body!.agent_settings as { mcp_config: unknown }).mcp_config },
    });
    expect(again.status).toBe(200);
    expect((again.body!.agent_settings as { mcp_config: unknown }).mcp_config).toEqual(
      (read.body!.agent_settings as { mcp_config: unknown }).mcp_config,
    );
  });
});

describe('GET /api/settings and /api/v1/settings on the app server (the MCPConfig lists)', () => {
  it('answers every MCP secret masked by place; the snapshot and state file hold none', async () => {
    const stored = await call(servers.url, 'POST', '/api/settings', {
      mcp_config: {
        sse_servers: [{ url: LONG_URL, api_key: null }],
        shttp_servers: [{ url: FRAGMENT_URL, api_key: null, timeout: 60 }],
        stdio_servers: [{ name: 'cli', command: 'npx', args: ARGS, env: ENV }],
      },
    });
    expect(stored.status).toBe(200);
    const legacy = await call(servers.url, 'GET', '/api/settings');
    expect(legacy.status).toBe(200);
    const masked = {
      sse_servers: [{ url: MASKED_URL, api_key: null }],
      shttp_servers: [{ url: MASKED_FRAGMENT_URL, api_key: null, timeout: 60 }],
      stdio_servers: [{ name: 'cli', command: 'npx', args: MASKED_ARGS, env: { ANY_NAME: M } }],
    };
    expect(legacy.body!.mcp_config).toEqual(masked);
    expectNoSecret(legacy.text, 'GET /api/settings');
    const newest = await call(servers.url, 'GET', '/api/v1/settings');
    expect(newest.status).toBe(200);
    expect((newest.body!.agent_settings as { mcp_config: unknown }).mcp_config).toEqual(masked);
    expectNoSecret(newest.text, 'GET /api/v1/settings');
    await expectStoredMasked();
    // The answer saved back as read keeps the stored servers: read again, it is the same.
    expect((await call(servers.url, 'POST', '/api/settings', { mcp_config: legacy.body!.mcp_config })).status).toBe(200);
    expect((await call(servers.url, 'GET', '/api/settings')).body!.mcp_config).toEqual(masked);
  });
});
