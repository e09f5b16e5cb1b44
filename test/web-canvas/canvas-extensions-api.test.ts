/**
 * The agent host's Canvas Extensions API, which Agent Canvas's local backend reads on every page
 * (`api/canvas-extensions-service.ts`: `GET /api/canvas-extensions/installed`). Canvas's launcher
 * forwards it to the agent server (`scripts/dev-with-automation.mjs`, `AGENT_SERVER_ROUTE_PREFIXES`);
 * the agent server's router is software-agent-sdk's `canvas_extensions_router.py` (commit 030b04c,
 * pull request #4395). The fake answers as a host with no extension installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';

let servers: FakeServers;
const call = async (path: string, init: { method?: string; body?: unknown } = {}) => {
  const response = await fetch(`${servers.agentUrl}${path}`, {
    method: init.method ?? 'GET',
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
};

beforeAll(async () => {
  servers = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'none' } });
});
afterAll(async () => {
  await servers.close();
});

describe('GET /api/canvas-extensions/installed (list_installed_canvas_extensions_endpoint)', () => {
  it('answers an empty list: no extension is installed', async () => {
    expect(await call('/api/canvas-extensions/installed')).toEqual({ status: 200, body: { canvas_extensions: [] } });
  });
});

describe('GET, PATCH, DELETE /api/canvas-extensions/installed/{extension_name}', () => {
  it('answers 404 "is not installed" for any name', async () => {
    const detail = { detail: "Canvas extension 'kanban-board' is not installed" };
    expect(await call('/api/canvas-extensions/installed/kanban-board')).toEqual({ status: 404, body: detail });
    expect(await call('/api/canvas-extensions/installed/kanban-board', { method: 'PATCH', body: { enabled: true } })).toEqual({
      status: 404,
      body: detail,
    });
    expect(await call('/api/canvas-extensions/installed/kanban-board', { method: 'DELETE' })).toEqual({ status: 404, body: detail });
  });

  it('refuses a name not in lowercase hyphenated words with a 422 at ["path", "extension_name"]', async () => {
    const { status, body } = await call('/api/canvas-extensions/installed/Kanban_Board');
    expect(status).toBe(422);
    expect((body as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(['path', 'extension_name']);
  });

  it('refuses a PATCH without a boolean "enabled" with a 422', async () => {
    expect((await call('/api/canvas-extensions/installed/kanban-board', { method: 'PATCH', body: { enabled: 'yes' } })).status).toBe(422);
  });
});

describe('GET /api/canvas-extensions/installed/{extension_name}/bundle (get_canvas_extension_bundle_endpoint)', () => {
  it('answers 404 "bundle not found"', async () => {
    expect(await call('/api/canvas-extensions/installed/kanban-board/bundle')).toEqual({
      status: 404,
      body: { detail: "Canvas extension 'kanban-board' bundle not found" },
    });
  });
});

describe('POST /api/canvas-extensions/install (install_canvas_extension_endpoint)', () => {
  it('answers 400 as for a source that cannot be fetched: the fake fetches none, and still lists none installed', async () => {
    expect(await call('/api/canvas-extensions/install', { method: 'POST', body: { source: 'github:acme/kanban-board' } })).toEqual({
      status: 400,
      body: { detail: 'Failed to fetch canvas extension source. Check that the source is valid.' },
    });
    expect((await call('/api/canvas-extensions/installed')).body).toEqual({ canvas_extensions: [] });
  });

  it('refuses an empty source with a 422', async () => {
    expect((await call('/api/canvas-extensions/install', { method: 'POST', body: { source: '' } })).status).toBe(422);
  });
});
