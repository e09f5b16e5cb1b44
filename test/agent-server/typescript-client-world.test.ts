/**
 * The official TypeScript client (`@openhands/typescript-client` 1.39.0) against the fake's agent
 * host: every one of its non-conversation agent-server methods (server details, settings, LLM and
 * agent profiles, LLM lists, skills, plugins, hooks, tools, sub-agents, workspaces, host files,
 * bash, the workspace session, meta-profiles), standalone (node:http) and in process (msw). The conversation
 * methods are tested with the conversation routes.
 */
import { syncBuiltinESMExports } from 'node:module';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { RemoteWorkspace } from '@openhands/typescript-client';
import { AgentServerClient } from '@openhands/typescript-client/clients';
import { createFake } from '../../src/index.js';
import { startFakeServers } from '../../src/server/start.js';

/** Calls every non-conversation method of the client on `host`; returns what each answered, by name. */
async function everyMethod(host: string, getBodies = true): Promise<Record<string, unknown>> {
  const client = new AgentServerClient({ host });
  const got: Record<string, unknown> = {};
  const record = async (name: string, call: () => Promise<unknown>) => {
    try {
      got[name] = await call();
    } catch (error) {
      throw new Error(`${name} failed: ${(error as Error).message}`);
    }
  };
  // Server details (server_details_router.py; the root: api.py, _setup_static_files).
  await record('server.getRoot', () => client.server.getRoot());
  await record('server.getAlive', () => client.server.getAlive());
  await record('server.getHealth', () => client.server.getHealth());
  await record('server.getReady', () => client.server.getReady());
  await record('server.getServerInfo', () => client.server.getServerInfo());
  // Settings (settings_router.py).
  await record('settings.getAgentSchema', () => client.settings.getAgentSchema());
  await record('settings.getConversationSchema', () => client.settings.getConversationSchema());
  await record('settings.getSettings', () => client.settings.getSettings());
  await record('settings.updateSettings', () => client.settings.updateSettings({ conversation_settings_diff: { max_iterations: 99 } }));
  await record('settings.createMcpServer', () => client.settings.createMcpServer('docs', { url: 'https://docs.example.com/mcp' } as never));
  await record('settings.patchMcpServer', () => client.settings.patchMcpServer('docs', { timeout: 30 } as never));
  await record('settings.deleteMcpServer', () => client.settings.deleteMcpServer('docs'));
  await record('settings.upsertSecret', () => client.settings.upsertSecret({ name: 'API_TOKEN', value: 'tok-secret', description: 'ci' }));
  await record('settings.listSecrets', () => client.settings.listSecrets());
  await record('settings.getSecret', () =>
    client.settings.getSecret('API_TOKEN').then(
      () => 'answered',
      (error: { status?: number }) => error.status,
    ),
  );
  await record('settings.deleteSecret', () => client.settings.deleteSecret('API_TOKEN'));
  await record('settings.saveProfile', () =>
    client.settings.saveProfile('fast', { llm: { model: 'openai/gpt-5-mini-2025-08-07', api_key: 'sk-fast' } } as never),
  );
  await record('settings.listProfiles', () => client.settings.listProfiles());
  await record('settings.getProfile', () => client.settings.getProfile('fast'));
  await record('settings.renameProfile', () => client.settings.renameProfile('fast', 'quick'));
  await record('settings.deleteProfile', () => client.settings.deleteProfile('quick'));
  // LLM profiles (profiles_router.py).
  await record('profiles.saveProfile', () =>
    client.profiles.saveProfile('smart', { llm: { model: 'anthropic/claude-opus-4-1-20250805', api_key: 'sk-smart' } } as never),
  );
  await record('profiles.validateProfile', () =>
    client.profiles.validateProfile('smart', { llm: { model: 'anthropic/claude-opus-4-1-20250805' } } as never),
  );
  await record('profiles.listProfiles', () => client.profiles.listProfiles());
  await record('profiles.getProfile', () => client.profiles.getProfile('smart'));
  await record('profiles.activateProfile', () => client.profiles.activateProfile('smart'));
  await record('profiles.renameProfile', () => client.profiles.renameProfile('smart', 'wise'));
  await record('profiles.deleteProfile', () => client.profiles.deleteProfile('wise'));
  // Agent profiles (agent_profiles_router.py).
  await record('agentProfiles.saveAgentProfile', () =>
    client.agentProfiles.saveAgentProfile('reviewer', { system_prompt: 'Review' } as never),
  );
  await record('agentProfiles.listAgentProfiles', () => client.agentProfiles.listAgentProfiles());
  await record('agentProfiles.getAgentProfile', () => client.agentProfiles.getAgentProfile('reviewer'));
  await record('agentProfiles.materializeAgentProfile', () => client.agentProfiles.materializeAgentProfile('reviewer'));
  const id = (got['agentProfiles.listAgentProfiles'] as { profiles: { id: string }[] }).profiles[0]!.id;
  await record('agentProfiles.activateAgentProfile', () => client.agentProfiles.activateAgentProfile(id));
  await record('agentProfiles.renameAgentProfile', () => client.agentProfiles.renameAgentProfile('reviewer', 'critic'));
  await record('agentProfiles.deleteAgentProfile', () => client.agentProfiles.deleteAgentProfile('critic'));
  // LLM lists (llm_router.py).
  await record('llm.getProviders', () => client.llm.getProviders());
  await record('llm.getModels', () => client.llm.getModels('openai'));
  await record('llm.getVerifiedModels', () => client.llm.getVerifiedModels());
  // Skills, plugins, hooks, tools, sub-agents.
  await record('skills.getSkills', () => client.skills.getSkills());
  await record('skills.syncSkills', () => client.skills.syncSkills());
  await record('skills.listInstalledSkills', () => client.skills.listInstalledSkills());
  await record('skills.getInstalledSkill', () => client.skills.getInstalledSkill('github'));
  await record('skills.toggleSkill', () => client.skills.toggleSkill('github', false));
  await record('skills.refreshSkill', () => client.skills.refreshSkill('github'));
  await record('skills.uninstallSkill', () => client.skills.uninstallSkill('github'));
  await record('skills.installSkill', () =>
    client.skills.installSkill({ source: 'github:OpenHands/extensions', repo_path: 'skills/github' } as never),
  );
  await record('skills.getMarketplace', () => client.skills.getMarketplace());
  await record('plugins.getPlugins', () => client.plugins.getPlugins());
  await record('plugins.getPluginsMarketplace', () => client.plugins.getPluginsMarketplace());
  await record('plugins.listInstalledPlugins', () => client.plugins.listInstalledPlugins());
  await record('plugins.getInstalledPlugin', () => client.plugins.getInstalledPlugin('code-review'));
  await record('plugins.setPluginEnabled', () => client.plugins.setPluginEnabled('code-review', false));
  await record('plugins.refreshPlugin', () => client.plugins.refreshPlugin('code-review'));
  await record('plugins.uninstallPlugin', () => client.plugins.uninstallPlugin('code-review'));
  await record('plugins.installPlugin', () =>
    client.plugins.installPlugin({ source: 'github:OpenHands/extensions', repo_path: 'plugins/release-notes' } as never),
  );
  await record('hooks.loadHooks', () => client.hooks.loadHooks());
  await record('tools.listTools', () => client.tools.listTools());
  await record('subAgents.getSubAgents', () => client.subAgents.getSubAgents());
  // Workspaces (workspaces_router.py).
  const item = { id: '/home/openhands/projects/todo-app', name: 'todo-app', path: '/home/openhands/projects/todo-app' };
  await record('workspaces.addWorkspaces', () => client.workspaces.addWorkspaces([item] as never));
  await record('workspaces.addWorkspaceParents', () =>
    client.workspaces.addWorkspaceParents([
      { id: '/home/openhands/projects', name: 'projects', path: '/home/openhands/projects' },
    ] as never),
  );
  await record('workspaces.listWorkspaces', () => client.workspaces.listWorkspaces());
  await record('workspaces.deleteWorkspace', () => client.workspaces.deleteWorkspace(item.path));
  await record('workspaces.deleteWorkspaceParent', () => client.workspaces.deleteWorkspaceParent('/home/openhands/projects'));
  // LLM subscription sign-in (llm_router.py: the ChatGPT device-code flow).
  await record('llm.getOpenAISubscriptionModels', () => client.llm.getOpenAISubscriptionModels());
  await record('llm.getOpenAISubscriptionStatus', () => client.llm.getOpenAISubscriptionStatus());
  await record('llm.startOpenAISubscriptionDeviceLogin', () => client.llm.startOpenAISubscriptionDeviceLogin());
  const deviceCode = (got['llm.startOpenAISubscriptionDeviceLogin'] as { device_code: string }).device_code;
  await record('llm.pollOpenAISubscriptionDeviceLogin', () => client.llm.pollOpenAISubscriptionDeviceLogin(deviceCode));
  await record('llm.logoutOpenAISubscription', () => client.llm.logoutOpenAISubscription());
  // MCP probes (mcp_router.py).
  await record('mcp.testServer', () => client.mcp.testServer({ server: { type: 'http', url: 'https://mcp.example.com/mcp' } } as never));
  const oauthServer = { type: 'http', url: 'https://mcp.example.com/mcp', auth: { strategy: 'oauth2' } };
  await record('mcp.startOAuth', () => client.mcp.startOAuth({ server: oauthServer } as never));
  const job = got['mcp.startOAuth'] as { job_id: string; authorization_url: string };
  await record('mcp.getOAuthStatus', () => client.mcp.getOAuthStatus(job.job_id));
  const redirect = new URL(job.authorization_url).searchParams.get('redirect_uri');
  await record('mcp.submitOAuthCallback', () =>
    client.mcp.submitOAuthCallback(job.job_id, { callback_url: `${redirect}?code=abc&state=s` } as never),
  );
  // The desktop (desktop_router.py): disabled in the default configuration, 503 as the real one answers.
  await record('desktop.getUrl', () =>
    client.desktop.getUrl().then(
      () => 'answered',
      (error: { status?: number }) => error.status,
    ),
  );
  // VS Code (vscode_router.py): the local agent server's editor.
  await record('vscode.getUrl', () => client.vscode.getUrl());
  await record('vscode.getStatus', () => client.vscode.getStatus());
  // Host files (file_router.py).
  await record('files.uploadTextFile', () => client.files.uploadTextFile('notes\n', '/home/openhands/workspace/notes.md'));
  await record('files.uploadFile', () =>
    client.files.uploadFile(new Blob([new Uint8Array([1, 2, 3])]), '/home/openhands/workspace/data.bin'),
  );
  await record('files.downloadTextFile', () => client.files.downloadTextFile('/home/openhands/workspace/notes.md'));
  await record('files.downloadFile', () =>
    client.files.downloadFile('/home/openhands/workspace/data.bin').then((b) => [...new Uint8Array(b)]),
  );
  const conversation = await client.conversations.createConversation({
    agent: { kind: 'Agent', llm: { model: 'openai/gpt-5' } },
    workspace: { working_dir: '/home/openhands/workspace' },
  } as never);
  await record('files.downloadTrajectory', () =>
    client.files.downloadTrajectory(conversation.id).then(async (zip) => new Uint8Array(await zip.arrayBuffer()).subarray(0, 2)),
  );
  await record('files.getHome', () => client.files.getHome());
  await record('files.searchSubdirectories', () => client.files.searchSubdirectories('/home/openhands/projects', { limit: 1 }));
  // Bash (bash_router.py).
  await record('bash.executeCommand', () => client.bash.executeCommand('echo hi'));
  await record('bash.startCommand', () => client.bash.startCommand('pwd', '/tmp'));
  await record('bash.searchEvents', () => client.bash.searchEvents());
  const eventId = (got['bash.executeCommand'] as { id: string }).id;
  await record('bash.getEvent', () => client.bash.getEvent(eventId));
  await record('bash.getEvents', () => client.bash.getEvents([eventId, '00000000-0000-4000-8000-000000000000']));
  // A GET with a JSON body (FastAPI reads a bare `list[str]` from the body): msw turns a request into a Fetch `Request`, which drops a GET's body.
  await record('bash.batchGetEvents', () =>
    getBodies
      ? client.bash.batchGetEvents([eventId, 'missing'])
      : client.bash
          .batchGetEvents([eventId])
          .catch((error: { status: number; response: unknown }) => ({ status: error.status, body: error.response })),
  );
  await record('bash.clearEvents', () => client.bash.clearEvents());
  // The workspace session (auth_router.py) and a remote workspace's shell.
  const workspace = new RemoteWorkspace({ host, workingDir: '/home/openhands/workspace' });
  await record('workspace.startWorkspaceSession', () => workspace.startWorkspaceSession('c0ffee'));
  await record('workspace.deleteWorkspaceSession', () => workspace.deleteWorkspaceSession().then(() => 'deleted'));
  await record('workspace.executeCommand', () => workspace.executeCommand('echo there'));
  // Meta-profiles (meta_profiles_router.py).
  const router = { classifier_model: 'quick', classes: [{ description: 'UI work', model: 'quick' }] };
  await record('metaProfiles.saveMetaProfile', () => client.metaProfiles.saveMetaProfile('router', router as never));
  await record('metaProfiles.listMetaProfiles', () => client.metaProfiles.listMetaProfiles());
  await record('metaProfiles.getMetaProfile', () => client.metaProfiles.getMetaProfile('router'));
  await record('metaProfiles.activateMetaProfile', () => client.metaProfiles.activateMetaProfile('router'));
  await record('metaProfiles.deleteMetaProfile', () => client.metaProfiles.deleteMetaProfile('router'));
  // Routes no agent server has, answered 404 as it answers them: the shared conversations of the
  // app server (OpenHands Cloud's `/api/shared-*`, which the fake's app server serves).
  const status = (call: () => Promise<unknown>) => () =>
    call().then(
      () => 'answered',
      (error: { status?: number }) => error.status,
    );
  const someId = '00000000-0000-4000-8000-000000000000';
  await record(
    'shared.getSharedConversations',
    status(() => client.shared.getSharedConversations([someId])),
  );
  await record(
    'shared.getSharedConversation',
    status(() => client.shared.getSharedConversation(someId)),
  );
  await record(
    'shared.searchSharedEvents',
    status(() => client.shared.searchSharedEvents({ conversation_id: someId } as never)),
  );
  return got;
}

/** What is not a request: the sub-clients' `close` and their private helpers (TypeScript's `private`, there at run time). */
const NOT_REQUESTS = new Set(['close', 'normalizeRequest', 'ensureWorkspacesSupported']);

/** Every public method of the agent-server clients `AgentServerClient` gathers, as `sub.method` (the conversation client is the conversations test's). */
function clientMethods(): string[] {
  const client = new AgentServerClient({ host: 'http://agent.test' });
  const names: string[] = [];
  for (const [name, sub] of Object.entries(client)) {
    if (name === 'conversations' || name === 'client' || sub === null || typeof sub !== 'object') continue;
    const prototype = Object.getPrototypeOf(sub) as Record<string, unknown>;
    if (prototype === Object.prototype) continue;
    for (const method of Object.getOwnPropertyNames(prototype))
      if (method !== 'constructor' && typeof prototype[method] === 'function' && !NOT_REQUESTS.has(method)) names.push(`${name}.${method}`);
  }
  return names.sort();
}

/** What every transport must answer alike. */
function expectWorking(got: Record<string, unknown>, host: string, getBodies = true) {
  expect(got['server.getServerInfo']).toMatchObject({ version: expect.stringMatching(/^1\.\d+\.\d+$/) });
  // A fresh host, as a fresh 1.58.2 agent server: its LLM has no key (settings_router.py get_settings).
  expect(got['settings.getSettings']).toMatchObject({
    llm_api_key_is_set: false,
    agent_settings: { schema_version: 9, llm: { api_key: null } },
  });
  expect(got['settings.updateSettings']).toMatchObject({ conversation_settings: { max_iterations: 99 } });
  expect(got['settings.createMcpServer']).toMatchObject({
    agent_settings: { mcp_config: { docs: { url: 'https://docs.example.com/mcp' } } },
  });
  expect(got['settings.patchMcpServer']).toMatchObject({ agent_settings: { mcp_config: { docs: { timeout: 30 } } } });
  expect(got['settings.deleteMcpServer']).toMatchObject({ agent_settings: { mcp_config: {} } });
  expect(got['settings.listSecrets']).toEqual({ secrets: [{ name: 'API_TOKEN', description: 'ci' }] });
  expect(got['settings.getSecret']).toBe(404);
  expect(got['settings.deleteSecret']).toEqual({ deleted: true });
  expect(got['settings.getProfile']).toMatchObject({ name: 'fast', api_key_set: true, config: { api_key: null } });
  expect(got['settings.renameProfile']).toMatchObject({ name: 'quick' });
  expect(got['profiles.validateProfile']).toEqual({ valid: true, error: null });
  expect(got['profiles.activateProfile']).toMatchObject({ name: 'smart', llm_applied: true });
  expect(got['profiles.deleteProfile']).toMatchObject({ name: 'wise' });
  expect(got['agentProfiles.getAgentProfile']).toMatchObject({ name: 'reviewer', profile: { system_prompt: 'Review' } });
  expect(got['agentProfiles.materializeAgentProfile']).toMatchObject({ valid: true, agent_kind: 'openhands' });
  expect(got['agentProfiles.activateAgentProfile']).toMatchObject({ id: expect.any(String) });
  expect(got['agentProfiles.deleteAgentProfile']).toMatchObject({ name: 'critic' });
  expect(got['llm.getProviders']).toContain('openai');
  expect((got['llm.getModels'] as string[]).every((m) => m.startsWith('openai/'))).toBe(true);
  expect(got['llm.getVerifiedModels']).toMatchObject({ openai: expect.arrayContaining(['gpt-5-2025-08-07']) });
  expect(got['skills.toggleSkill']).toEqual({ name: 'github', enabled: false });
  expect(got['skills.installSkill']).toMatchObject({ name: 'github', enabled: true });
  expect(got['plugins.installPlugin']).toMatchObject({ name: 'release-notes' });
  expect(got['hooks.loadHooks']).toEqual({ hook_config: null });
  expect(got['tools.listTools']).toContain('terminal');
  expect(got['subAgents.getSubAgents']).toMatchObject({ agents: [{ name: 'explore' }] });
  expect(got['workspaces.listWorkspaces']).toMatchObject({ workspaces: [{ path: '/home/openhands/projects/todo-app' }] });
  expect(got['workspaces.deleteWorkspace']).toEqual({ deleted: true });
  expect(got['files.getHome']).toMatchObject({ home: '/home/openhands' });
  expect(got['files.searchSubdirectories']).toEqual({
    items: [{ name: 'api-server', path: '/home/openhands/projects/api-server' }],
    next_page_id: 'todo-app',
  });
  expect(got['bash.executeCommand']).toMatchObject({ kind: 'BashOutput', stdout: 'hi\n', exit_code: 0 });
  expect(got['bash.startCommand']).toMatchObject({ kind: 'BashCommand', command: 'pwd', cwd: '/tmp' });
  expect(got['bash.getEvents']).toEqual([expect.objectContaining({ kind: 'BashOutput' }), null]);
  if (getBodies) expect(got['bash.batchGetEvents']).toEqual([expect.objectContaining({ kind: 'BashOutput' }), null]);
  else
    expect(got['bash.batchGetEvents']).toEqual({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] },
    });
  expect((got['bash.clearEvents'] as { cleared_count: number }).cleared_count).toBeGreaterThanOrEqual(3);
  expect(got['workspace.startWorkspaceSession']).toBe(`${host}/api/conversations/c0ffee/workspace/`);
  expect(got['workspace.deleteWorkspaceSession']).toBe('deleted');
  expect(got['workspace.executeCommand']).toMatchObject({ exit_code: 0, stdout: expect.stringContaining('there') });
  // The same document, read at two moments: its clocks (uptime, idle_time) may have moved on between them.
  const { uptime: _u1, idle_time: _i1, ...root } = got['server.getRoot'] as Record<string, unknown>;
  const { uptime: _u2, idle_time: _i2, ...info } = got['server.getServerInfo'] as Record<string, unknown>;
  expect(root).toEqual(info);
  expect(got['llm.getOpenAISubscriptionModels']).toContain('gpt-5.5');
  expect(got['llm.pollOpenAISubscriptionDeviceLogin']).toMatchObject({ vendor: 'openai', connected: false });
  expect(got['llm.logoutOpenAISubscription']).toEqual({ vendor: 'openai', connected: false, account_email: null, expires_at: null });
  expect(got['mcp.testServer']).toMatchObject({ ok: true, tools: ['fetch', 'list_resources', 'search'] });
  expect(got['mcp.getOAuthStatus']).toMatchObject({ ok: true, status: 'authorizing' });
  expect(got['mcp.submitOAuthCallback']).toMatchObject({ ok: true, status: 'succeeded' });
  expect(got['desktop.getUrl']).toBe(503);
  expect(got['vscode.getUrl']).toMatch(/\?tkn=[^&]+&folder=workspace$/);
  expect(got['vscode.getStatus']).toEqual({ running: true, enabled: true });
  expect(got['files.uploadTextFile']).toEqual({ success: true, file_size: 6 });
  expect(got['files.downloadTextFile']).toBe('notes\n');
  expect(got['files.downloadFile']).toEqual([1, 2, 3]);
  // A ZIP's first bytes, "PK".
  expect([...(got['files.downloadTrajectory'] as Uint8Array)]).toEqual([0x50, 0x4b]);
  expect(got['metaProfiles.listMetaProfiles']).toEqual({
    meta_profiles: [{ name: 'router', classifier_model: 'quick', num_classes: 1 }],
    active_meta_profile: null,
  });
  expect(got['metaProfiles.getMetaProfile']).toMatchObject({
    name: 'router',
    config: { classifier_model: 'quick', prompt_template: null },
  });
  expect(got['metaProfiles.activateMetaProfile']).toEqual({ name: 'router', message: "Meta-profile 'router' activated", applied: true });
  expect(got['metaProfiles.deleteMetaProfile']).toEqual({ name: 'router', message: "Meta-profile 'router' deleted" });
  for (const name of Object.keys(got).filter((n) => n.startsWith('shared.'))) expect([name, got[name]]).toEqual([name, 404]);
}

describe('@openhands/typescript-client against the agent host', () => {
  it('the test calls every public method of every agent-server client (a method a new client version adds fails here until it is called)', async () => {
    const servers = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'none' } });
    try {
      const called = Object.keys(await everyMethod(servers.agentUrl)).filter((name) => !name.startsWith('workspace.'));
      expect(clientMethods().filter((name) => !called.includes(name))).toEqual([]);
      expect(clientMethods().length).toBeGreaterThan(90);
    } finally {
      await servers.close();
    }
  });

  it('every non-conversation method works against the standalone server', async () => {
    const servers = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'none' } });
    try {
      expectWorking(await everyMethod(servers.agentUrl), servers.agentUrl);
    } finally {
      await servers.close();
    }
  });

  it('every non-conversation method works in process (msw)', async () => {
    const fake = await createFake({ timings: 'instant', fixture: 'empty', auth: 'none', agentUrl: 'http://agent.test' });
    const server = setupServer(...fake.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    // The client sends its GET-with-body batch calls through `import('node:http')`: the namespace sees msw's patched `request` only once synced.
    syncBuiltinESMExports();
    try {
      expectWorking(await everyMethod('http://agent.test', false), 'http://agent.test', false);
    } finally {
      server.close();
    }
  });
});
