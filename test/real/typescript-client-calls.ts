/**
 * The calls the differential suite makes with the official TypeScript client
 * (`@openhands/typescript-client`): every method of its agent-server clients, in one fixed order
 * and with the same arguments on each side (ids are each side's own: a conversation the side
 * created, an event it published). Each call's outcome — its result, or the HTTP status it failed
 * with — is kept by the method's name for `typescript-client.real.test.ts` to compare. The
 * conversation methods are in `typescript-client-conversation-calls.ts`.
 */
import { AgentServerClient } from '@openhands/typescript-client/clients';

/** One side's agent server, and what its calls need. */
export interface Side {
  /** The agent server's URL. */
  readonly host: string;
  /** Its session key. */
  readonly key: string;
  /** A folder of the machine the real agent server runs on, the same path on both sides. */
  readonly workDir: string;
  /** The scripted LLM's URL (the real agent's LLM; the fake's agent plays the same scripts). */
  readonly llmUrl: string;
}

/** What a call came to: `ok` and its result, or `HTTP <status>` and the error's body, or `throws` (no HTTP answer). */
export interface Outcome {
  readonly outcome: string;
  readonly value: unknown;
}

/** Records one call under a name; answers its result, or `undefined` when it failed. */
export type Recorder = <T>(name: string, call: () => Promise<T>) => Promise<T | undefined>;

/** A result as JSON: bytes and blobs as a marker (their contents are each side's files), `undefined` as `null`. */
function plain(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Blob || value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return '<bytes>';
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: unknown } = {};
    for (const [k, v] of Object.entries(value)) if (typeof v !== 'function') out[k] = plain(v);
    return out;
  }
  return value;
}

/** The HTTP error in `error` or its cause (the workspace's git calls wrap theirs). */
function httpError(error: unknown): { status: number; response?: unknown } | null {
  for (let e = error as { status?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (typeof e.status === 'number') return e as { status: number; response?: unknown };
  return null;
}

/** A recorder that keeps each outcome in `outcomes` (a name called twice is an error of the test). */
export function recorder(outcomes: Map<string, Outcome>): Recorder {
  return async (name, call) => {
    if (outcomes.has(name)) throw new Error(`${name} is recorded twice`);
    try {
      const value = await call();
      outcomes.set(name, { outcome: 'ok', value: plain(value) });
      return value;
    } catch (error) {
      const http = httpError(error);
      outcomes.set(
        name,
        http ? { outcome: `HTTP ${http.status}`, value: plain(http.response) } : { outcome: 'throws', value: String(error) },
      );
      return undefined;
    }
  };
}

/** An id that names nothing on either side. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** The LLM a saved profile holds: the scripted one. */
export const profileLlm = (side: Side, model: string) => ({
  model,
  base_url: `${side.llmUrl}/v1`,
  api_key: 'sk-fakehands',
  num_retries: 0,
});

/** Calls every method of the clients `AgentServerClient` gathers but its conversation client, on `side`. */
export async function hostCalls(side: Side, record: Recorder): Promise<void> {
  const c = new AgentServerClient({ host: side.host, apiKey: side.key });
  const dir = side.workDir;
  // Server details (server_details_router.py).
  await record('server.getRoot', () => c.server.getRoot());
  await record('server.getAlive', () => c.server.getAlive());
  await record('server.getHealth', () => c.server.getHealth());
  await record('server.getReady', () => c.server.getReady());
  await record('server.getServerInfo', () => c.server.getServerInfo());
  // Settings (settings_router.py).
  await record('settings.getAgentSchema', () => c.settings.getAgentSchema());
  await record('settings.getConversationSchema', () => c.settings.getConversationSchema());
  await record('settings.getSettings', () => c.settings.getSettings());
  await record('settings.updateSettings', () => c.settings.updateSettings({ conversation_settings_diff: { max_iterations: 99 } }));
  await record('settings.createMcpServer', () => c.settings.createMcpServer('docs', { url: 'http://127.0.0.1:9/mcp' } as never));
  await record('settings.patchMcpServer', () => c.settings.patchMcpServer('docs', { timeout: 30 } as never));
  await record('settings.deleteMcpServer', () => c.settings.deleteMcpServer('docs'));
  await record('settings.upsertSecret', () => c.settings.upsertSecret({ name: 'API_TOKEN', value: 'tok-secret', description: 'ci' }));
  await record('settings.listSecrets', () => c.settings.listSecrets());
  await record('settings.getSecret', () => c.settings.getSecret('API_TOKEN'));
  await record('settings.deleteSecret', () => c.settings.deleteSecret('API_TOKEN'));
  await record('settings.saveProfile', () => c.settings.saveProfile('fast', { llm: profileLlm(side, 'openai/fast') } as never));
  await record('settings.listProfiles', () => c.settings.listProfiles());
  await record('settings.getProfile', () => c.settings.getProfile('fast'));
  await record('settings.renameProfile', () => c.settings.renameProfile('fast', 'quick'));
  await record('settings.deleteProfile', () => c.settings.deleteProfile('quick'));
  // LLM profiles (profiles_router.py): 'smart' stays, for the conversations' switch_profile.
  await record('profiles.saveProfile', () => c.profiles.saveProfile('wise', { llm: profileLlm(side, 'openai/wise') } as never));
  await record('profiles.validateProfile', () => c.profiles.validateProfile('wise', { llm: profileLlm(side, 'openai/wise') } as never));
  await record('profiles.listProfiles', () => c.profiles.listProfiles());
  await record('profiles.getProfile', () => c.profiles.getProfile('wise'));
  await record('profiles.activateProfile', () => c.profiles.activateProfile('wise'));
  await record('profiles.renameProfile', () => c.profiles.renameProfile('wise', 'smart'));
  await record('profiles.deleteProfile', () => c.profiles.deleteProfile('no-such-profile'));
  // Meta-profiles (meta_profiles_router.py): routes between saved LLM profiles.
  const meta = { classifier_model: 'smart', classes: [{ description: 'UI work', model: 'smart' }] };
  await record('metaProfiles.saveMetaProfile', () => c.metaProfiles.saveMetaProfile('router', meta as never));
  await record('metaProfiles.listMetaProfiles', () => c.metaProfiles.listMetaProfiles());
  await record('metaProfiles.getMetaProfile', () => c.metaProfiles.getMetaProfile('router'));
  await record('metaProfiles.activateMetaProfile', () => c.metaProfiles.activateMetaProfile('router'));
  await record('metaProfiles.deleteMetaProfile', () => c.metaProfiles.deleteMetaProfile('router'));
  // Agent profiles (agent_profiles_router.py).
  await record('agentProfiles.saveAgentProfile', () =>
    c.agentProfiles.saveAgentProfile('reviewer', { agent_kind: 'openhands', llm_profile_ref: 'smart', persona: 'Review' } as never),
  );
  const listed = await record('agentProfiles.listAgentProfiles', () => c.agentProfiles.listAgentProfiles());
  await record('agentProfiles.getAgentProfile', () => c.agentProfiles.getAgentProfile('reviewer'));
  await record('agentProfiles.materializeAgentProfile', () => c.agentProfiles.materializeAgentProfile('reviewer'));
  const profileId = (listed as { profiles?: { id: string; name: string }[] } | undefined)?.profiles?.find((p) => p.name === 'reviewer')?.id;
  await record('agentProfiles.activateAgentProfile', () => c.agentProfiles.activateAgentProfile(profileId ?? MISSING_ID));
  await record('agentProfiles.renameAgentProfile', () => c.agentProfiles.renameAgentProfile('reviewer', 'critic'));
  await record('agentProfiles.deleteAgentProfile', () => c.agentProfiles.deleteAgentProfile('critic'));
  // LLM lists and the subscription sign-in (llm_router.py).
  await record('llm.getProviders', () => c.llm.getProviders());
  await record('llm.getModels', () => c.llm.getModels('openai'));
  await record('llm.getVerifiedModels', () => c.llm.getVerifiedModels());
  await record('llm.getOpenAISubscriptionModels', () => c.llm.getOpenAISubscriptionModels());
  await record('llm.getOpenAISubscriptionStatus', () => c.llm.getOpenAISubscriptionStatus());
  const device = await record('llm.startOpenAISubscriptionDeviceLogin', () => c.llm.startOpenAISubscriptionDeviceLogin());
  const code = (device as { device_code?: string } | undefined)?.device_code ?? 'no-such-device-code';
  await record('llm.pollOpenAISubscriptionDeviceLogin', () => c.llm.pollOpenAISubscriptionDeviceLogin(code));
  await record('llm.logoutOpenAISubscription', () => c.llm.logoutOpenAISubscription());
  // Skills and plugins (skills_router.py, plugins_router.py).
  await record('skills.getSkills', () => c.skills.getSkills());
  await record('skills.syncSkills', () => c.skills.syncSkills());
  await record('skills.listInstalledSkills', () => c.skills.listInstalledSkills());
  await record('skills.getInstalledSkill', () => c.skills.getInstalledSkill('no-such-skill'));
  await record('skills.toggleSkill', () => c.skills.toggleSkill('no-such-skill', false));
  await record('skills.refreshSkill', () => c.skills.refreshSkill('no-such-skill'));
  await record('skills.uninstallSkill', () => c.skills.uninstallSkill('no-such-skill'));
  await record('skills.installSkill', () => c.skills.installSkill({ source: `${dir}/no-such-skill` } as never));
  await record('skills.getMarketplace', () => c.skills.getMarketplace());
  await record('plugins.getPlugins', () => c.plugins.getPlugins());
  await record('plugins.getPluginsMarketplace', () => c.plugins.getPluginsMarketplace());
  await record('plugins.listInstalledPlugins', () => c.plugins.listInstalledPlugins());
  await record('plugins.getInstalledPlugin', () => c.plugins.getInstalledPlugin('no-such-plugin'));
  await record('plugins.setPluginEnabled', () => c.plugins.setPluginEnabled('no-such-plugin', false));
  await record('plugins.refreshPlugin', () => c.plugins.refreshPlugin('no-such-plugin'));
  await record('plugins.uninstallPlugin', () => c.plugins.uninstallPlugin('no-such-plugin'));
  await record('plugins.installPlugin', () => c.plugins.installPlugin({ source: `${dir}/no-such-plugin` } as never));
  // Hooks, tools, sub-agents (hooks_router.py, tool_router.py, sub_agents_router.py).
  await record('hooks.loadHooks', () => c.hooks.loadHooks({ project_dir: dir } as never));
  await record('tools.listTools', () => c.tools.listTools());
  await record('subAgents.getSubAgents', () => c.subAgents.getSubAgents());
  // MCP probes (mcp_router.py), against a server no name resolves (RFC 2606's .invalid).
  const server = { type: 'http', url: 'http://mcp.fakehands.invalid/mcp' };
  await record('mcp.testServer', () => c.mcp.testServer({ server } as never));
  const job = await record('mcp.startOAuth', () => c.mcp.startOAuth({ server: { ...server, auth: { strategy: 'oauth2' } } } as never));
  const jobId = (job as { job_id?: string } | undefined)?.job_id ?? 'no-such-job';
  await record('mcp.getOAuthStatus', () => c.mcp.getOAuthStatus(jobId));
  await record('mcp.submitOAuthCallback', () =>
    c.mcp.submitOAuthCallback(jobId, { callback_url: 'http://127.0.0.1:9/cb?code=a&state=s' } as never),
  );
  // The desktop and VS Code (desktop_router.py, vscode_router.py).
  await record('desktop.getUrl', () => c.desktop.getUrl());
  await record('vscode.getUrl', () => c.vscode.getUrl());
  await record('vscode.getStatus', () => c.vscode.getStatus());
  // Host files (file_router.py): two project folders to search.
  await record('files.uploadTextFile', () => c.files.uploadTextFile('notes\n', `${dir}/projects/alpha/notes.md`));
  await record('files.uploadFile', () => c.files.uploadFile(new Blob([new Uint8Array([1, 2, 3])]), `${dir}/projects/beta/data.bin`));
  await record('files.downloadTextFile', () => c.files.downloadTextFile(`${dir}/projects/alpha/notes.md`));
  await record('files.downloadFile', () => c.files.downloadFile(`${dir}/projects/beta/data.bin`));
  await record('files.downloadTrajectory', () => c.files.downloadTrajectory(MISSING_ID));
  await record('files.getHome', () => c.files.getHome());
  await record('files.searchSubdirectories', () => c.files.searchSubdirectories(`${dir}/projects`, { limit: 1 }));
  // Workspaces (workspaces_router.py).
  const project = { id: `${dir}/projects/alpha`, name: 'alpha', path: `${dir}/projects/alpha` };
  await record('workspaces.addWorkspaces', () => c.workspaces.addWorkspaces([project] as never));
  await record('workspaces.addWorkspaceParents', () =>
    c.workspaces.addWorkspaceParents([{ id: `${dir}/projects`, name: 'projects', path: `${dir}/projects` }] as never),
  );
  await record('workspaces.listWorkspaces', () => c.workspaces.listWorkspaces());
  await record('workspaces.deleteWorkspace', () => c.workspaces.deleteWorkspace(project.path));
  await record('workspaces.deleteWorkspaceParent', () => c.workspaces.deleteWorkspaceParent(`${dir}/projects`));
  // Bash (bash_router.py).
  const ran = await record('bash.executeCommand', () => c.bash.executeCommand('echo hi'));
  await record('bash.startCommand', () => c.bash.startCommand('pwd', dir));
  await record('bash.searchEvents', () => c.bash.searchEvents());
  const eventId = (ran as { id?: string } | undefined)?.id ?? MISSING_ID;
  await record('bash.getEvent', () => c.bash.getEvent(eventId));
  await record('bash.getEvents', () => c.bash.getEvents([eventId, MISSING_ID]));
  await record('bash.batchGetEvents', () => c.bash.batchGetEvents([eventId, MISSING_ID]));
  await record('bash.clearEvents', () => c.bash.clearEvents());
  // The app server's shared conversations (OpenHands Cloud): no agent server serves them.
  await record('shared.getSharedConversations', () => c.shared.getSharedConversations([MISSING_ID]));
  await record('shared.getSharedConversation', () => c.shared.getSharedConversation(MISSING_ID));
  await record('shared.searchSharedEvents', () => c.shared.searchSharedEvents({ conversation_id: MISSING_ID } as never));
  c.close();
}
