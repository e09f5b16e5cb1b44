/**
 * The agent host's host-wide state (settings, profiles, workspaces, directories, provider
 * connections, skills and plugins) is the state's like any record: `fakehands serve --state-file`
 * keeps every acknowledged write across a clean restart, a snapshot shows it, a reset starts it
 * afresh, and a write the state file cannot take is undone. No secret reaches the file.
 */
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { open, rename, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFakeCore } from '../../src/fake.js';
import { REDACTED } from '../../src/domain/store/redact.js';
import { createFakeServer } from '../../src/server/http-server.js';
import { freePort, startFakeServers } from '../../src/server/start.js';
import { StateFileWriter, readStateFile, type StateFileIo } from '../../src/server/state-file.js';
import { startCli } from '../support/cli.js';

const SECRETS = ['sk-profile-secret-1', 'npm-secret-2', 'sk-connection-secret-3'];

/** A fresh folder and the path of a state file in it. */
async function stateFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'fakehands-host-')), 'state.json');
}

/** A client of an agent host under `--auth none`: each call answers its status and body. */
const client = (agentUrl: string) => async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${agentUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

/** Every read that shows a host-wide write. */
const READS = [
  '/api/settings',
  '/api/profiles',
  '/api/profiles/fast',
  '/api/settings/secrets',
  '/api/agent-profiles',
  '/api/agent-profiles/reviewer',
  '/api/workspaces',
  '/api/file/search_subdirs?path=/home/openhands/projects',
  '/api/llm/provider-connections',
  '/api/skills/installed',
  '/api/plugins/installed',
];

/** An answer without `agent_settings.agent_context.current_datetime`, which is the time of the read. */
function withoutReadTime<T extends { body: unknown }>(answer: T): T {
  const text = JSON.stringify(answer.body ?? null).replace(/"current_datetime":"[^"]*"/g, '"current_datetime":"(read time)"');
  return { ...answer, body: JSON.parse(text) as unknown };
}

describe('fakehands serve --state-file', () => {
  it('keeps each kind of host-wide write of the agent host across a clean restart, every body read back as it was answered, no secret in the file', async () => {
    const file = await stateFile();
    const serve = () => startCli(['--quiet', '--auth', 'none', '--fixture', 'empty', '--timings', 'instant', '--state-file', file]);
    const first = await serve();
    const call = client(first.agentUrl);
    const writes = [
      // 1. the agent settings (the LLM), 2. the frontend's misc settings
      await call('PATCH', '/api/settings', { agent_settings_diff: { llm: { model: 'openai/gpt-5-mini-2025-08-07' } } }),
      await call('PATCH', '/api/settings', { misc_settings_diff: { theme: 'dark', sidebar: { open: false } } }),
      // 3. an LLM profile, 4. a custom secret
      await call('POST', '/api/profiles/fast', { llm: { model: 'openai/gpt-5-mini-2025-08-07', api_key: SECRETS[0] } }),
      await call('PUT', '/api/settings/secrets', { name: 'NPM_TOKEN', value: SECRETS[1], description: 'Publishes the packages' }),
      // 5. an agent profile
      await call('POST', '/api/agent-profiles/reviewer', { agent_kind: 'openhands', llm_profile_ref: 'fast', system_prompt: 'Review.' }),
      // 7. workspaces and a parent, 8. a directory
      await call('POST', '/api/workspaces', { workspaces: [{ id: 'todo', name: 'todo-app', path: '/projects/todo-app' }] }),
      await call('POST', '/api/workspaces/parents', { parents: [{ id: 'projects', name: 'projects', path: '/projects' }] }),
      await call('POST', '/api/file/create_directory?path=/home/openhands/projects/new-app'),
      // 9. a provider connection, 10. a skill uninstalled (and a plugin)
      await call('POST', '/api/llm/provider-connections', {
        display_name: 'Team key',
        provider: 'openai',
        api_key: SECRETS[2],
        base_url: 'https://llm.example.com/v1',
      }),
      await call('DELETE', '/api/skills/installed/docker'),
      await call('DELETE', '/api/plugins/installed/code-review'),
    ];
    const reviewer = (await call('GET', '/api/agent-profiles/reviewer')).body.profile as { id: string };
    // 6. the active agent profile
    writes.push(await call('POST', `/api/agent-profiles/${reviewer.id}/activate`));
    expect(writes.map((w) => w.status)).toEqual([200, 200, 201, 200, 201, 200, 200, 200, 201, 200, 200, 200]);

    const before = await Promise.all(READS.map((path) => call('GET', path)));
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const written = await Promise.all((await readdir(join(file, '..'))).map((name) => readFile(join(file, '..', name), 'utf8')));
    expect(SECRETS.filter((secret) => written.some((text) => text.includes(secret)))).toEqual([]);

    const second = await serve();
    const after = await Promise.all(READS.map((path) => client(second.agentUrl)('GET', path)));
    second.proc.kill('SIGTERM');
    await second.exited;
    // The agent context's current_datetime is the time of each read, not a stored value (openhands-sdk
    // AgentContext's default): every other field is read back as it was answered.
    expect(after.map(withoutReadTime)).toEqual(before.map(withoutReadTime));
    // What was read back is each write, not a fresh host's defaults.
    const [settings, profiles, , secrets, agentProfiles, , workspaces, subdirs, connections, skills, plugins] = after.map((a) => a.body);
    expect([settings!.misc_settings, settings!.active_agent_profile_id]).toEqual([
      { theme: 'dark', sidebar: { open: false } },
      reviewer.id,
    ]);
    expect((settings!.agent_settings as { llm: { model: string } }).llm.model).toBe('openai/gpt-5-mini-2025-08-07');
    expect((profiles!.profiles as { name: string; api_key_set: boolean }[]).find((p) => p.name === 'fast')?.api_key_set).toBe(true);
    expect(secrets).toEqual({ secrets: [{ name: 'NPM_TOKEN', description: 'Publishes the packages' }] });
    expect(agentProfiles).toEqual({
      profiles: [
        { id: reviewer.id, name: 'reviewer', agent_kind: 'openhands', revision: 0, llm_profile_ref: 'fast', mcp_server_refs: null },
      ],
      active_agent_profile_id: reviewer.id,
    });
    expect(workspaces).toEqual({
      workspaces: [{ id: 'todo', name: 'todo-app', path: '/projects/todo-app' }],
      workspaceParents: [{ id: 'projects', name: 'projects', path: '/projects' }],
    });
    expect((subdirs!.items as { name: string }[]).map((i) => i.name)).toEqual(['api-server', 'new-app', 'todo-app']);
    expect(connections).toEqual([
      {
        id: (writes[8]!.body as { id: string }).id,
        display_name: 'Team key',
        provider: 'openai',
        base_url: 'https://llm.example.com/v1',
        created_at: (writes[8]!.body as { created_at: number }).created_at,
        updated_at: (writes[8]!.body as { created_at: number }).created_at,
        api_key_set: true,
      },
    ]);
    expect((skills!.skills as { name: string }[]).map((s) => s.name)).toEqual(['github']);
    expect(plugins).toEqual({ plugins: [] });
  }, 60_000);
});

describe('StateFileWriter', () => {
  it('appends a host-wide write to the log as one line holding the agent world as it now is (keys masked), leaving the snapshot as it was; the file reads back with it', async () => {
    const file = await stateFile();
    const servers = await startFakeServers({ fake: { auth: 'none', fixture: 'empty', timings: 'instant' } });
    const writer = new StateFileWriter(file);
    await writer.write(await servers.fake.snapshot());
    servers.fake.onChange((changes, state) => writer.record(changes, state));
    const call = client(servers.agentUrl);
    try {
      const snapshot = await readFile(file, 'utf8');
      await call('POST', '/api/workspaces', { workspaces: [{ id: 'todo', name: 'todo-app', path: '/projects/todo-app' }] });
      await call('POST', '/api/llm/provider-connections', { display_name: 'Team key', provider: 'openai', api_key: SECRETS[2] });
      const lines = (await readFile(`${file}.log`, 'utf8'))
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.map((line) => [line.op, line.part])).toEqual([
        ['set', 'agent_world'],
        ['set', 'agent_world'],
      ]);
      expect(await readFile(file, 'utf8')).toBe(snapshot);
      const shown = (await (await fetch(`${servers.url}/_fakehands/state`)).json()) as { agent_world: Record<string, unknown> };
      expect(lines[1]!.value).toEqual(shown.agent_world);
      expect((shown.agent_world.provider_connections as { api_key: string }[]).map((c) => c.api_key)).toEqual([REDACTED]);
      expect(((await readStateFile(file)) as { agent_world: unknown }).agent_world).toEqual(shown.agent_world);
    } finally {
      await writer.close();
      await servers.close();
    }
  });
});

describe('GET /_fakehands/state', () => {
  it("shows the agent host's world with its secrets masked; a reset starts a fresh one", async () => {
    const servers = await startFakeServers({ fake: { auth: 'none', fixture: 'empty', timings: 'instant' } });
    const { url } = servers;
    const call = client(servers.agentUrl);
    try {
      await call('POST', '/api/workspaces', { workspaces: [{ id: 'todo', name: 'todo-app', path: '/projects/todo-app' }] });
      await call('POST', '/api/llm/provider-connections', { display_name: 'Team key', provider: 'openai', api_key: SECRETS[2] });
      const shown = (await (await fetch(`${url}/_fakehands/state`)).json()) as {
        agent_world: { workspaces: unknown[]; provider_connections: { api_key: string }[] };
      };
      expect(shown.agent_world.workspaces).toEqual([{ id: 'todo', name: 'todo-app', path: '/projects/todo-app' }]);
      expect(shown.agent_world.provider_connections.map((c) => c.api_key)).toEqual([REDACTED]);
      expect((await fetch(`${url}/_fakehands/reset`, { method: 'POST' })).status).toBe(200);
      expect((await call('GET', '/api/workspaces')).body).toEqual({ workspaces: [], workspaceParents: [] });
      expect((await call('GET', '/api/llm/provider-connections')).body).toEqual([]);
    } finally {
      await servers.close();
    }
  });
});

describe('POST /api/workspaces', () => {
  it('answers 507 and keeps nothing when the state file cannot be written (a full disk)', async () => {
    const file = await stateFile();
    let full = false;
    const io: StateFileIo = {
      rename,
      unlink,
      open: (async (path: string, flags: number, mode: number) => {
        const handle = await open(path, flags, mode);
        const noSpace = () => Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        // The disk fills up once the test says so: for the log kept open as for a new snapshot.
        return Object.assign(Object.create(handle) as typeof handle, {
          write: (...args: Parameters<typeof handle.write>) => (full ? Promise.reject(noSpace()) : handle.write(...args)),
          writeFile: (...args: Parameters<typeof handle.writeFile>) => (full ? Promise.reject(noSpace()) : handle.writeFile(...args)),
          truncate: (length?: number) => handle.truncate(length),
          stat: () => handle.stat(),
          sync: () => handle.sync(),
          close: () => handle.close(),
        });
      }) as StateFileIo['open'],
    };
    const agentUrl = `http://127.0.0.1:${await freePort('127.0.0.1', 0)}`;
    const fake = await createFakeCore({ clock: 'system', auth: 'none', fixture: 'empty', timings: 'instant', agentUrl });
    const writer = new StateFileWriter(file, io);
    await writer.write(await fake.snapshot());
    const server = createFakeServer(fake, { origin: agentUrl, stateFile: writer });
    await server.listen(Number(new URL(agentUrl).port), '127.0.0.1');
    const call = client(agentUrl);
    try {
      full = true;
      const refused = await call('POST', '/api/workspaces', { workspaces: [{ id: 'todo', name: 'todo-app', path: '/projects/todo-app' }] });
      expect(refused.status).toBe(507);
      full = false;
      expect((await call('GET', '/api/workspaces')).body).toEqual({ workspaces: [], workspaceParents: [] });
    } finally {
      await server.close();
    }
  });
});
