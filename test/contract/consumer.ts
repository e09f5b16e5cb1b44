/**
 * The consumer side: what a client of the Conversation and Sandbox Service relies on, one Pact
 * interaction per behaviour, exercised by the typed client. Running these writes the contract
 * in contracts/. Matchers fit the real service: ids by pattern, never exact ids or timestamps.
 */
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { expect } from 'vitest';
import { apiError } from './api-error.js';
import { createClient } from '../../src/client/index.js';
import { CONSUMER_NAME, PROVIDER_NAME } from '../../src/pact/verify.js';
import { writeAgentContracts } from './agent-consumer.js';
import { mockServerSettled } from './mock-server-settled.js';

const { regex, like, eachLike, string, boolean, integer, number, nullValue, fromProviderState } = MatchersV3;

/** The key the consumer tests send; the contract never stores it (the verifier injects the real one). */
const CONSUMER_KEY = 'consumer-test-key';

const DATETIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?(Z|[+-]\\d{2}:\\d{2})$';
const datetime = () => regex(DATETIME, '2025-11-03T09:00:00.123456Z');
const hex32 = (example = '8f0d1a2b3c4d4e5f8a9b0c1d2e3f4a5b') => regex('^[0-9a-f]{32}$', example);
const oneOf = (values: readonly string[], example: string) => regex(`^(${values.join('|')})$`, example);
const SANDBOX_ID_EXAMPLE = 'oh-agent-server-5bYPoe7xcxCvASl4SPp9dH';
const CONVERSATION_ID_EXAMPLE = '4f8b3a529c1d4e7a8b6f2d3c4e5f6a7b';
const TASK_ID_EXAMPLE = '0b1c2d3e4f504a6b8c7d9e0f1a2b3c4d';

/** A path that must match `pattern`, filled in by the provider from a provider state value. */
function pathFromState(pattern: string, expression: string, example: string) {
  return {
    'pact:matcher:type': 'regex',
    regex: pattern,
    'pact:generator:type': 'ProviderState',
    expression,
    value: example,
  } as unknown as string;
}

const sandboxPath = (action: 'pause' | 'resume') =>
  pathFromState(
    `^/api/v1/sandboxes/[^/]+/${action}$`,
    `/api/v1/sandboxes/\${sandbox_id}/${action}`,
    `/api/v1/sandboxes/${SANDBOX_ID_EXAMPLE}/${action}`,
  );

const sandboxSpec = () => ({
  id: string('ghcr.io/openhands/agent-server:1.1.0-python'),
  command: eachLike('--port'),
  created_at: datetime(),
  initial_env: like({ LOG_JSON: 'true' }),
  working_dir: string('/home/openhands/workspace'),
});

const runningSandbox = () => ({
  id: string(SANDBOX_ID_EXAMPLE),
  sandbox_spec_id: string('ghcr.io/openhands/agent-server:1.1.0-python'),
  status: 'RUNNING',
  session_api_key: string('46RgJAU9f2ERdv5Y5ex3d0RVGgo3GTE67L7bQpX9p98'),
  exposed_urls: eachLike({
    name: oneOf(['AGENT_SERVER', 'VSCODE', 'WORKER_1', 'WORKER_2'], 'AGENT_SERVER'),
    url: regex('^https?://.+$', 'http://localhost:30000'),
    port: integer(30000),
  }),
  created_at: datetime(),
  status_detail: nullValue(),
});

const appConversationCommon = () => ({
  id: hex32(CONVERSATION_ID_EXAMPLE),
  sandbox_id: string(SANDBOX_ID_EXAMPLE),
  selected_repository: string('OpenHands/OpenHands'),
  git_provider: 'github',
  title: string(`Conversation ${CONVERSATION_ID_EXAMPLE}`),
  pr_number: [],
  agent_kind: string('openhands'),
  metrics: like({ model_name: 'default', accumulated_cost: number(0.0123) }),
  sub_conversation_ids: [],
  tags: like({}),
  created_at: datetime(),
  updated_at: datetime(),
});

const validationError = (example: { type: string; loc: string[]; msg: string; input: unknown }) => ({
  detail: eachLike({
    type: string(example.type),
    loc: eachLike(string(example.loc[0]!)),
    msg: string(example.msg),
    input: like(example.input),
  }),
});

/** What one interaction's test does with a client pointed at the mock server. */
type Check = (url: string) => Promise<void>;

const withKey = (url: string) => createClient({ baseUrl: url, apiKey: CONSUMER_KEY });
const withoutKey = (url: string) => createClient({ baseUrl: url });

/** Writes every interaction of both contracts (the app server's, then the agent server's) into `dir`; returns how many it wrote. */
export async function writeContracts(dir: string): Promise<number> {
  const pact = new PactV4({
    consumer: CONSUMER_NAME,
    provider: PROVIDER_NAME,
    dir,
    spec: SpecificationVersion.SPECIFICATION_VERSION_V4,
    logLevel: 'warn',
  });
  let written = 0;
  const add = async (
    state: string,
    params: Record<string, string> | undefined,
    description: string,
    request: { method: string; path: string; query?: Record<string, unknown>; body?: unknown },
    response: { status: number; body: unknown },
    check: Check,
  ) => {
    await pact
      .addInteraction()
      .given(state, params)
      .uponReceiving(description)
      .withRequest(request.method, request.path, (builder) => {
        if (request.query) builder.query(request.query as never);
        if (request.body !== undefined) builder.jsonBody(request.body);
      })
      .willRespondWith(response.status, (builder) => builder.jsonBody(response.body))
      .executeTest(async (server) => {
        await check(server.url);
        await mockServerSettled(pact, server.port);
      });
    written++;
  };

  // -------------------------------------------------------------- POST /api/conversations
  await add(
    'the service is up',
    undefined,
    'a request to create a conversation on a repository',
    {
      method: 'POST',
      path: '/api/conversations',
      body: { repository: 'OpenHands/OpenHands', git_provider: 'github', initial_user_msg: 'Fix the flaky test' },
    },
    {
      status: 200,
      body: {
        status: 'ok',
        conversation_id: hex32(),
        message: nullValue(),
        conversation_status: oneOf(['STARTING', 'RUNNING', 'STOPPED', 'ARCHIVED', 'ERROR'], 'STARTING'),
      },
    },
    async (url) => {
      const created = await withKey(url).createConversation({
        repository: 'OpenHands/OpenHands',
        git_provider: 'github',
        initial_user_msg: 'Fix the flaky test',
      });
      expect(created.conversation_id).toMatch(/^[0-9a-f]{32}$/);
    },
  );
  await add(
    'the client sends no session API key',
    undefined,
    'a request to create a conversation without a session API key',
    { method: 'POST', path: '/api/conversations', body: {} },
    { status: 401, body: { detail: 'Unauthorized' } },
    async (url) => expect((await apiError(withoutKey(url).createConversation({}))).status).toBe(401),
  );
  await add(
    'the service is up',
    undefined,
    'a request to create a conversation with an unknown git provider',
    { method: 'POST', path: '/api/conversations', body: { repository: 'a/b', git_provider: 'sourceforge' } },
    {
      status: 422,
      body: validationError({
        type: 'enum',
        loc: ['body', 'git_provider'],
        msg: "Input should be 'github', 'gitlab', 'bitbucket' or 'enterprise_sso'",
        input: 'sourceforge',
      }),
    },
    async (url) => {
      const error = await apiError(withKey(url).createConversation({ repository: 'a/b', git_provider: 'sourceforge' as 'github' }));
      expect(error.status).toBe(422);
      expect(error.detail).toMatchObject([{ type: 'enum', msg: expect.stringContaining("'github'") }]);
    },
  );

  // -------------------------------------------------------------- POST /api/add-git-providers
  await add(
    'the service is up',
    undefined,
    'a request to store a git provider token',
    {
      method: 'POST',
      path: '/api/add-git-providers',
      body: { provider_tokens: { github: { token: 'ghp_contractToken', host: 'github.com' } } },
    },
    { status: 200, body: { message: string('Git providers stored') } },
    async (url) => {
      const stored = await withKey(url).storeGitProviders({
        provider_tokens: { github: { token: 'ghp_contractToken', host: 'github.com' } },
      });
      expect(stored.message).toBe('Git providers stored');
    },
  );
  await add(
    'the client sends no session API key',
    undefined,
    'a request to store git providers without a session API key',
    { method: 'POST', path: '/api/add-git-providers', body: { provider_tokens: {} } },
    { status: 401, body: { detail: 'Unauthorized' } },
    async (url) => expect((await apiError(withoutKey(url).storeGitProviders({ provider_tokens: {} }))).status).toBe(401),
  );
  await add(
    'the service is up',
    undefined,
    'a request to store a token for a provider that does not exist',
    { method: 'POST', path: '/api/add-git-providers', body: { provider_tokens: { sourcehut: { token: 'x' } } } },
    {
      status: 422,
      body: validationError({
        type: 'enum',
        loc: ['body', 'provider_tokens', 'sourcehut', '[key]'],
        msg: "Input should be 'github', 'gitlab', 'bitbucket' or 'enterprise_sso'",
        input: 'sourcehut',
      }),
    },
    async (url) => {
      const error = await apiError(withKey(url).storeGitProviders({ provider_tokens: { sourcehut: { token: 'x' } } as never }));
      expect(error.status).toBe(422);
    },
  );

  // -------------------------------------------------------------- POST /api/v1/app-conversations
  await add(
    'the service is up',
    undefined,
    'a request to start an app conversation',
    {
      method: 'POST',
      path: '/api/v1/app-conversations',
      body: {
        selected_repository: 'OpenHands/OpenHands',
        git_provider: 'github',
        initial_message: { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      },
    },
    {
      status: 200,
      body: {
        id: hex32(TASK_ID_EXAMPLE),
        status: oneOf(
          [
            'WORKING',
            'WAITING_FOR_SANDBOX',
            'PREPARING_REPOSITORY',
            'RUNNING_SETUP_SCRIPT',
            'SETTING_UP_GIT_HOOKS',
            'SETTING_UP_SKILLS',
            'STARTING_CONVERSATION',
            'READY',
            'ERROR',
          ],
          'WORKING',
        ),
        request: like({ selected_repository: 'OpenHands/OpenHands' }),
        created_at: datetime(),
        updated_at: datetime(),
      },
    },
    async (url) => {
      const task = await withKey(url).startAppConversation({
        selected_repository: 'OpenHands/OpenHands',
        git_provider: 'github',
        initial_message: { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      });
      expect(task.status).toBe('WORKING');
    },
  );

  await add(
    'a RUNNING sandbox exists',
    undefined,
    'a request to start an app conversation in an existing sandbox',
    {
      method: 'POST',
      path: '/api/v1/app-conversations',
      body: { sandbox_id: fromProviderState('${sandbox_id}', SANDBOX_ID_EXAMPLE), title: 'In my sandbox' },
    },
    {
      status: 200,
      body: {
        id: hex32(TASK_ID_EXAMPLE),
        status: string('WORKING'),
        request: like({ sandbox_id: SANDBOX_ID_EXAMPLE, title: 'In my sandbox' }),
      },
    },
    async (url) => {
      const task = await withKey(url).startAppConversation({ sandbox_id: SANDBOX_ID_EXAMPLE, title: 'In my sandbox' });
      expect(task.request.sandbox_id).toBe(SANDBOX_ID_EXAMPLE);
    },
  );

  // -------------------------------------------------------------- GET /api/v1/app-conversations
  await add(
    'an app conversation exists',
    undefined,
    'a request for an app conversation by id',
    {
      method: 'GET',
      path: '/api/v1/app-conversations',
      query: { ids: fromProviderState('${app_conversation_id}', CONVERSATION_ID_EXAMPLE) },
    },
    {
      status: 200,
      body: eachLike({
        ...appConversationCommon(),
        sandbox_status: 'RUNNING',
        execution_status: oneOf(['idle', 'running', 'finished', 'paused', 'waiting_for_confirmation', 'error', 'stuck'], 'idle'),
        conversation_url: regex(
          '^https?://.+/api/conversations/[0-9a-f]{32}$',
          'http://localhost:30000/api/conversations/4f8b3a529c1d4e7a8b6f2d3c4e5f6a7b',
        ),
        session_api_key: string('46RgJAU9f2ERdv5Y5ex3d0RVGgo3GTE67L7bQpX9p98'),
      }),
    },
    async (url) => {
      const [conversation] = await withKey(url).getAppConversations([CONVERSATION_ID_EXAMPLE]);
      expect(conversation?.sandbox_status).toBe('RUNNING');
    },
  );
  await add(
    'an app conversation whose sandbox is paused exists',
    undefined,
    'a request for an app conversation whose sandbox is paused',
    {
      method: 'GET',
      path: '/api/v1/app-conversations',
      query: { ids: fromProviderState('${app_conversation_id}', CONVERSATION_ID_EXAMPLE) },
    },
    {
      status: 200,
      body: eachLike({
        ...appConversationCommon(),
        sandbox_status: 'PAUSED',
        execution_status: nullValue(),
        conversation_url: nullValue(),
        session_api_key: nullValue(),
      }),
    },
    async (url) => {
      const [conversation] = await withKey(url).getAppConversations([CONVERSATION_ID_EXAMPLE]);
      expect(conversation).toMatchObject({ sandbox_status: 'PAUSED', execution_status: null, conversation_url: null });
    },
  );
  await add(
    'an app conversation exists',
    undefined,
    'a request to search app conversations',
    { method: 'GET', path: '/api/v1/app-conversations/search', query: { limit: '20' } },
    {
      status: 200,
      body: {
        items: eachLike({
          id: hex32(CONVERSATION_ID_EXAMPLE),
          sandbox_id: string(SANDBOX_ID_EXAMPLE),
          sandbox_status: oneOf(['STARTING', 'RUNNING', 'PAUSED', 'ERROR', 'MISSING'], 'RUNNING'),
          sub_conversation_ids: [],
          created_at: datetime(),
        }),
      },
    },
    async (url) => {
      const page = await withKey(url).searchAppConversations({ limit: 20 });
      expect(page.items.length).toBeGreaterThan(0);
    },
  );

  // -------------------------------------------------------------- one app conversation: rename, message, file, delete
  const conversationPath = (suffix: string) =>
    pathFromState(
      `^/api/v1/app-conversations/[0-9a-f]{32}${suffix.replace(/[/-]/g, '\\$&')}$`,
      `/api/v1/app-conversations/\${app_conversation_id}${suffix}`,
      `/api/v1/app-conversations/${CONVERSATION_ID_EXAMPLE}${suffix}`,
    );
  await add(
    'an app conversation exists',
    undefined,
    'a request to rename an app conversation',
    { method: 'PATCH', path: conversationPath(''), body: { title: 'Renamed by contract' } },
    { status: 200, body: { ...appConversationCommon(), title: 'Renamed by contract' } },
    async (url) =>
      expect((await withKey(url).updateAppConversation(CONVERSATION_ID_EXAMPLE, { title: 'Renamed by contract' })).title).toBe(
        'Renamed by contract',
      ),
  );
  await add(
    'an app conversation exists',
    undefined,
    'a request to send a message to an app conversation',
    { method: 'POST', path: conversationPath('/send-message'), body: { content: [{ type: 'text', text: 'Also add a test' }], run: true } },
    { status: 200, body: { success: true, sandbox_status: 'RUNNING', message: nullValue() } },
    async (url) => expect((await withKey(url).sendMessage(CONVERSATION_ID_EXAMPLE, 'Also add a test')).success).toBe(true),
  );
  await add(
    'an app conversation exists',
    undefined,
    'a request to read a file of an app conversation',
    { method: 'GET', path: conversationPath('/file'), query: { file_path: 'PLAN.md' } },
    { status: 200, body: string('# Plan\n') },
    async (url) => expect(typeof (await withKey(url).readFile(CONVERSATION_ID_EXAMPLE, 'PLAN.md'))).toBe('string'),
  );
  await add(
    'an app conversation exists',
    undefined,
    'a request to delete an app conversation',
    { method: 'DELETE', path: conversationPath('') },
    { status: 200, body: { success: true } },
    async (url) => expect(await withKey(url).deleteAppConversation(CONVERSATION_ID_EXAMPLE)).toEqual({ success: true }),
  );

  // -------------------------------------------------------------- GET /api/v1/sandboxes/search
  await add(
    'at least two sandboxes exist',
    undefined,
    'a request for the first page of sandboxes, one a page',
    { method: 'GET', path: '/api/v1/sandboxes/search', query: { limit: '1' } },
    {
      status: 200,
      body: {
        items: eachLike(
          {
            id: string(SANDBOX_ID_EXAMPLE),
            sandbox_spec_id: string('ghcr.io/openhands/agent-server:1.1.0-python'),
            status: oneOf(['STARTING', 'RUNNING', 'PAUSED', 'ERROR'], 'STARTING'),
            created_at: datetime(),
          },
          1,
        ),
        next_page_id: string('1'),
      },
    },
    async (url) => {
      const page = await withKey(url).searchSandboxes({ limit: 1 });
      expect(page.items).toHaveLength(1);
      expect(page.next_page_id).toEqual(expect.any(String));
    },
  );
  await add(
    'the service is up',
    undefined,
    'a request for sandboxes with a limit of 0',
    { method: 'GET', path: '/api/v1/sandboxes/search', query: { limit: '0' } },
    {
      status: 422,
      body: validationError({ type: 'greater_than', loc: ['query', 'limit'], msg: 'Input should be greater than 0', input: '0' }),
    },
    async (url) => expect((await apiError(withKey(url).searchSandboxes({ limit: 0 }))).status).toBe(422),
  );

  // -------------------------------------------------------------- POST /api/v1/sandboxes, GET /api/v1/sandboxes
  await add(
    'a sandbox spec exists',
    undefined,
    'a request to start a sandbox from the default spec',
    { method: 'POST', path: '/api/v1/sandboxes' },
    {
      status: 200,
      body: {
        id: string(SANDBOX_ID_EXAMPLE),
        sandbox_spec_id: string('ghcr.io/openhands/agent-server:1.1.0-python'),
        status: 'STARTING',
        session_api_key: nullValue(),
        created_at: datetime(),
      },
    },
    async (url) => {
      const sandbox = await withKey(url).startSandbox();
      expect(sandbox.status).toBe('STARTING');
    },
  );
  await add(
    'a RUNNING sandbox exists',
    undefined,
    'a request for a running sandbox by id',
    { method: 'GET', path: '/api/v1/sandboxes', query: { id: fromProviderState('${sandbox_id}', SANDBOX_ID_EXAMPLE) } },
    { status: 200, body: eachLike(runningSandbox()) },
    async (url) => {
      const [sandbox] = await withKey(url).getSandboxes([SANDBOX_ID_EXAMPLE]);
      expect(sandbox?.session_api_key).toEqual(expect.any(String));
    },
  );

  // -------------------------------------------------------------- pause and resume
  await add(
    'a RUNNING sandbox exists',
    undefined,
    'a request to pause a running sandbox',
    { method: 'POST', path: sandboxPath('pause') },
    { status: 200, body: { success: boolean(true) } },
    async (url) => expect(await withKey(url).pauseSandbox(SANDBOX_ID_EXAMPLE)).toEqual({ success: true }),
  );
  await add(
    'a PAUSED sandbox exists',
    undefined,
    'a request to resume a paused sandbox',
    { method: 'POST', path: sandboxPath('resume') },
    { status: 200, body: { success: boolean(true) } },
    async (url) => expect(await withKey(url).resumeSandbox(SANDBOX_ID_EXAMPLE)).toEqual({ success: true }),
  );
  await add(
    'no sandbox has the given id',
    { sandbox_id: 'oh-agent-server-does-not-exist' },
    'a request to pause a sandbox that does not exist',
    { method: 'POST', path: sandboxPath('pause') },
    { status: 404, body: { detail: 'Not Found' } },
    async (url) => expect((await apiError(withKey(url).pauseSandbox(SANDBOX_ID_EXAMPLE))).status).toBe(404),
  );

  // -------------------------------------------------------------- GET /api/v1/sandbox-specs/search
  await add(
    'a sandbox spec exists',
    undefined,
    'a request for the sandbox specs',
    { method: 'GET', path: '/api/v1/sandbox-specs/search' },
    { status: 200, body: { items: eachLike(sandboxSpec()) } },
    async (url) => {
      const page = await withKey(url).searchSandboxSpecs();
      expect(page.items[0]?.working_dir).toBe('/home/openhands/workspace');
    },
  );

  return written + (await writeAgentContracts(dir));
}
