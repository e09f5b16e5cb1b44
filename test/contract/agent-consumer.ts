/**
 * The consumer side of the agent server behind `conversation_url`: the REST calls the OpenHands web
 * client makes on a conversation's agent host (frontend `v1-conversation-service.api.ts`:
 * sendMessage, pauseConversation, resumeConversation, uploadFile, getVSCodeUrl;
 * `event-service.api.ts`: respondToConfirmation; `v1-git-service.api.ts`: getGitChanges,
 * getGitChangeDiff), and what it reads back, exercised by `createAgentClient`. Workspace calls use
 * the newest server's `?path=` form. Ids and paths come from provider states, never fixed values.
 * Agent Canvas's calls through the official TypeScript client: start a conversation, interrupt (Stop),
 * its local health check and settings form (read, save; the LLM profiles its home page counts), and
 * its terminal (run a command, read the shell's events).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { expect } from 'vitest';
import { apiError } from './api-error.js';
import { RemoteWorkspace } from '@openhands/typescript-client';
import { BashClient, ConversationClient, ProfilesClient, SettingsClient } from '@openhands/typescript-client/clients';
import { createAgentClient } from '../../src/client/index.js';
import { AGENT_PROVIDER_NAME, CONSUMER_NAME } from '../../src/pact/verify.js';
import { mockServerSettled } from './mock-server-settled.js';

const { regex, like, eachLike, string, boolean, integer, fromProviderState } = MatchersV3;

/** The key the consumer tests send; the verifier injects the sandbox's own. */
const CONSUMER_KEY = 'consumer-test-key';
const CONVERSATION_ID = '4f8b3a52-9c1d-4e7a-8b6f-2d3c4e5f6a7b';
const PROJECT_DIR = '/home/openhands/workspace';
const UUID = '^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$';
const EXECUTION_STATUS = '^(idle|running|paused|waiting_for_confirmation|finished|error|stuck)$';

/** A path under the conversation, its id filled in by the provider state. */
function conversationPath(rest: string) {
  return {
    'pact:matcher:type': 'regex',
    regex: `^/api/conversations/[0-9a-f-]{32,36}${rest.replace(/[/]/g, '\\/')}$`,
    'pact:generator:type': 'ProviderState',
    expression: `/api/conversations/\${conversation_id}${rest}`,
    value: `/api/conversations/${CONVERSATION_ID}${rest}`,
  } as unknown as string;
}

/** What one interaction's test does with an agent client pointed at the mock server. */
type Check = (agent: ReturnType<typeof createAgentClient>, url: string) => Promise<void>;

const agentAt = (url: string, key = CONSUMER_KEY) =>
  createAgentClient({ conversationUrl: `${url}/api/conversations/${CONVERSATION_ID}`, sessionApiKey: key });

const event = () => ({
  kind: string('MessageEvent'),
  id: string('9b2e4c1a-0d3f-4e5a-8b7c-6d5e4f3a2b1c'),
  timestamp: string('2025-11-03T09:00:00.123456'),
  source: regex('^(user|agent|environment)$', 'user'),
});

/** Writes the agent server's interactions into `dir`; returns how many it wrote. */
export async function writeAgentContracts(dir: string): Promise<number> {
  const pact = new PactV4({
    consumer: CONSUMER_NAME,
    provider: AGENT_PROVIDER_NAME,
    dir,
    spec: SpecificationVersion.SPECIFICATION_VERSION_V4,
    logLevel: 'warn',
  });
  const upload = join(await mkdtemp(join(tmpdir(), 'fakehands-upload-')), 'notes.txt');
  await writeFile(upload, 'Notes for the agent.\n');
  let written = 0;
  const add = async (
    state: string | readonly string[],
    description: string,
    request: { method: string; path: string; query?: Record<string, unknown>; body?: unknown; multipart?: string },
    response: { status: number; body: unknown },
    check: Check,
  ) => {
    let interaction = pact.addInteraction();
    for (const name of typeof state === 'string' ? [state] : state) interaction = interaction.given(name);
    await interaction
      .uponReceiving(description)
      .withRequest(request.method, request.path, (builder) => {
        if (request.query) builder.query(request.query as never);
        if (request.body !== undefined) builder.jsonBody(request.body);
        if (request.multipart) builder.multipartBody('text/plain', request.multipart, 'file', 'fakehands-contract-boundary');
      })
      .willRespondWith(response.status, (builder) => builder.jsonBody(response.body))
      .executeTest(async (server) => {
        await check(agentAt(server.url), server.url);
        await mockServerSettled(pact, server.port);
      });
    written++;
  };
  const finished = 'a conversation whose agent has finished a run';

  // ------------------------------------------------ the event log
  await add(
    finished,
    "a request for a page of the conversation's events",
    { method: 'GET', path: conversationPath('/events/search'), query: { limit: '5' } },
    { status: 200, body: { items: eachLike(event()), next_page_id: like('8a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d') } },
    async (agent) => expect((await agent.searchEvents({ limit: 5 })).items[0]?.kind).toBe('MessageEvent'),
  );
  await add(
    finished,
    'a message for the agent, sent without a run',
    {
      method: 'POST',
      path: conversationPath('/events'),
      body: { role: 'user', content: [{ type: 'text', text: 'Also update the README' }], run: false },
    },
    { status: 200, body: { success: boolean(true) } },
    async (agent) => expect(await agent.sendMessage('Also update the README', { run: false })).toEqual({ success: true }),
  );
  await add(
    [finished, 'the client sends no session API key'],
    "a request for the events without the sandbox's session key",
    { method: 'GET', path: conversationPath('/events/search'), query: { limit: '5' } },
    { status: 401, body: { detail: 'Unauthorized' } },
    async (_agent, url) => expect((await apiError(agentAt(url, 'wrong').searchEvents({ limit: 5 }))).status).toBe(401),
  );

  // ------------------------------------------------ the conversation
  await add(
    finished,
    'a request for the conversation',
    { method: 'GET', path: conversationPath('') },
    {
      status: 200,
      body: {
        id: regex(UUID, CONVERSATION_ID),
        agent: { kind: string('Agent'), llm: { model: string('litellm_proxy/anthropic/claude-sonnet-4-5-20250929') } },
        workspace: { working_dir: string(PROJECT_DIR) },
        execution_status: regex(EXECUTION_STATUS, 'finished'),
        confirmation_policy: { kind: string('NeverConfirm') },
      },
    },
    async (agent) => expect((await agent.getConversation()).execution_status).toBe('finished'),
  );
  await add(
    finished,
    'a request to pause the agent',
    { method: 'POST', path: conversationPath('/pause') },
    { status: 200, body: { success: boolean(true) } },
    async (agent) => expect(await agent.pause()).toEqual({ success: true }),
  );
  await add(
    'a conversation whose agent is paused',
    'a request to let a paused agent run',
    { method: 'POST', path: conversationPath('/run') },
    { status: 200, body: { success: boolean(true) } },
    async (agent) => expect(await agent.run()).toEqual({ success: true }),
  );
  await add(
    'a conversation whose agent waits for confirmation',
    'a rejection of the action waiting for confirmation',
    { method: 'POST', path: conversationPath('/events/respond_to_confirmation'), body: { accept: false, reason: 'Not this command' } },
    { status: 200, body: { success: boolean(true) } },
    async (agent) => expect(await agent.respondToConfirmation(false, 'Not this command')).toEqual({ success: true }),
  );

  // ------------------------------------------------ what Agent Canvas and the TypeScript client call (issue 31)
  await add(
    finished,
    'a conversation started on the agent server',
    {
      method: 'POST',
      path: '/api/conversations',
      body: {
        agent: { kind: 'Agent', llm: { model: 'litellm_proxy/anthropic/claude-sonnet-4-5-20250929' } },
        workspace: { working_dir: '/workspace/project' },
      },
    },
    {
      status: 201,
      body: {
        id: regex(UUID, '0c5e7a1b-2d3f-4a6b-9c8d-7e6f5a4b3c2d'),
        execution_status: regex(EXECUTION_STATUS, 'idle'),
        workspace: { working_dir: string('/workspace/project') },
        confirmation_policy: { kind: string('NeverConfirm') },
      },
    },
    async (_agent, url) => {
      const client = new ConversationClient({ host: url, apiKey: CONSUMER_KEY });
      const created = await client.createConversation({
        agent: { kind: 'Agent', llm: { model: 'litellm_proxy/anthropic/claude-sonnet-4-5-20250929' } },
        workspace: { working_dir: '/workspace/project' },
      } as never);
      expect(created.execution_status).toBe('idle');
    },
  );
  await add(
    finished,
    "a request to interrupt the agent (Agent Canvas's Stop)",
    { method: 'POST', path: conversationPath('/interrupt'), body: {} },
    { status: 200, body: { success: boolean(true) } },
    async (_agent, url) =>
      expect(await new ConversationClient({ host: url, apiKey: CONSUMER_KEY }).interruptConversation(CONVERSATION_ID)).toEqual({
        success: true,
      }),
  );

  // ------------------------------------------------ Agent Canvas's local backend: settings and the LLM it counts as configured (issue 31)
  const agentServerUp = 'an agent server is running';
  await add(
    agentServerUp,
    "a request for the user's settings (Agent Canvas's health check and settings form)",
    { method: 'GET', path: '/api/settings' },
    {
      status: 200,
      body: {
        agent_settings: { llm: { model: string('anthropic/claude-sonnet-4-5-20250929') } },
        conversation_settings: { max_iterations: integer(500) },
        llm_api_key_is_set: boolean(true),
        misc_settings: like({}),
      },
    },
    async (_agent, url) => {
      // What Canvas reads (settings-service.api.ts): the LLM's model and whether its key is set.
      const settings = await new SettingsClient({ host: url, apiKey: CONSUMER_KEY }).getSettings();
      expect(settings.agent_settings.llm).toMatchObject({ model: 'anthropic/claude-sonnet-4-5-20250929' });
      expect(settings.llm_api_key_is_set).toBe(true);
    },
  );
  await add(
    agentServerUp,
    'a change to the conversation settings (Agent Canvas saves its settings form)',
    { method: 'PATCH', path: '/api/settings', body: { conversation_settings_diff: { max_iterations: 80 } } },
    {
      status: 200,
      body: {
        agent_settings: { llm: { model: string('anthropic/claude-sonnet-4-5-20250929') } },
        conversation_settings: { max_iterations: 80 },
        llm_api_key_is_set: boolean(true),
      },
    },
    async (_agent, url) => {
      const settings = await new SettingsClient({ host: url, apiKey: CONSUMER_KEY }).updateSettings({
        conversation_settings_diff: { max_iterations: 80 },
      });
      expect(settings.conversation_settings).toMatchObject({ max_iterations: 80 });
    },
  );
  await add(
    agentServerUp,
    "a request for the user's LLM profiles",
    { method: 'GET', path: '/api/profiles' },
    {
      status: 200,
      body: {
        profiles: eachLike({ name: string('default'), model: string('anthropic/claude-sonnet-4-5-20250929'), api_key_set: boolean(true) }),
        active_profile: string('default'),
      },
    },
    async (_agent, url) => {
      const list = await new ProfilesClient({ host: url, apiKey: CONSUMER_KEY }).listProfiles();
      expect(list.profiles[0]).toMatchObject({ name: 'default', api_key_set: true });
    },
  );

  // ------------------------------------------------ the shell (Agent Canvas's terminal; issue 31)
  await add(
    agentServerUp,
    "a shell command run to its end (Agent Canvas's terminal)",
    { method: 'POST', path: '/api/bash/execute_bash_command', body: { command: 'echo hello', timeout: 30 } },
    {
      status: 200,
      body: {
        kind: 'BashOutput',
        id: regex(UUID, '5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d'),
        command_id: regex(UUID, '6e2d3c4b-5f6a-4b7c-9d8e-0f1a2b3c4d5e'),
        exit_code: 0,
        stdout: 'hello\n',
      },
    },
    async (_agent, url) =>
      expect(
        await new RemoteWorkspace({ host: url, apiKey: CONSUMER_KEY, workingDir: PROJECT_DIR }).executeCommand('echo hello'),
      ).toMatchObject({ exit_code: 0, stdout: 'hello\n' }),
  );
  await add(
    'a shell command has run on the agent server',
    "a request for one command's shell events",
    {
      method: 'GET',
      path: '/api/bash/bash_events/search',
      query: {
        kind__eq: 'BashOutput',
        command_id__eq: fromProviderState('${command_id}', '6e2d3c4b-5f6a-4b7c-9d8e-0f1a2b3c4d5e'),
        limit: '10',
      },
    },
    {
      status: 200,
      body: {
        items: eachLike({
          kind: 'BashOutput',
          id: regex(UUID, '5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d'),
          command_id: regex(UUID, '6e2d3c4b-5f6a-4b7c-9d8e-0f1a2b3c4d5e'),
          order: integer(0),
          exit_code: 0,
          stdout: 'hello\n',
        }),
        next_page_id: null,
      },
    },
    async (_agent, url) => {
      const page = await new BashClient({ host: url, apiKey: CONSUMER_KEY }).searchEvents({
        kind__eq: 'BashOutput',
        command_id__eq: '6e2d3c4b-5f6a-4b7c-9d8e-0f1a2b3c4d5e',
        limit: 10,
      });
      expect(page.items[0]).toMatchObject({ kind: 'BashOutput', stdout: 'hello\n' });
    },
  );

  // ------------------------------------------------ the workspace
  await add(
    finished,
    'a request for the changed files of the project',
    { method: 'GET', path: '/api/git/changes', query: { path: fromProviderState('${project_dir}', PROJECT_DIR) } },
    { status: 200, body: eachLike({ status: regex('^(ADDED|DELETED|UPDATED|MOVED)$', 'ADDED'), path: string('PLAN.md') }) },
    async (agent) => expect((await agent.gitChanges(PROJECT_DIR))[0]?.path).toBe('PLAN.md'),
  );
  await add(
    finished,
    'a request for a changed file before and after',
    { method: 'GET', path: '/api/git/diff', query: { path: fromProviderState('${changed_file}', `${PROJECT_DIR}/PLAN.md`) } },
    { status: 200, body: { modified: string('# Plan\n') } },
    async (agent) => expect((await agent.gitDiff(`${PROJECT_DIR}/PLAN.md`)).modified).toBe('# Plan\n'),
  );
  await add(
    finished,
    'a file uploaded into the sandbox',
    { method: 'POST', path: '/api/file/upload', query: { path: '/workspace/notes.txt' }, multipart: upload },
    { status: 200, body: { success: boolean(true) } },
    async (agent) =>
      expect(
        await agent.uploadFile('/workspace/notes.txt', new Blob(['Notes for the agent.\n'], { type: 'text/plain' }), 'notes.txt'),
      ).toEqual({ success: true }),
  );
  await add(
    finished,
    'a request for the VS Code URL',
    { method: 'GET', path: '/api/vscode/url' },
    { status: 200, body: { url: regex('^https?://.+tkn=.+$', 'http://localhost:8001/?tkn=abc&folder=workspace') } },
    async (agent) => expect(await agent.vscodeUrl()).toBe('http://localhost:8001/?tkn=abc&folder=workspace'),
  );

  return written;
}
