/**
 * The data set generator, without faker: every random value comes from the seeded `RandomSource`,
 * and the few words and picks faker makes come from a `Chooser`. In Node, faker chooses
 * (`generate.ts`); in a page, the choices faker made for the default fixture, recorded when the
 * package was built, are replayed: a page generates the default fixture instead of downloading it
 * (issue 23), the same records as fixtures/default.json (a test checks it).
 */
import { AppConversationStartRequest } from '../schemas/app-conversation.js';
import { ConversationTrigger, ProviderType } from '../schemas/common.js';
import { formatDateTime } from '../schemas/datetime.js';
import type { FixtureInput } from '../schemas/fixture.js';
import type { ConversationRecord, SandboxRecord, StartTaskRecord, StoredSandboxStatus } from '../schemas/records.js';
import type { UserSettingsRecord } from '../schemas/user-settings.js';
import { DEFAULT_WORKING_DIR, type SandboxSpecInfo } from '../schemas/sandbox-spec.js';
import { DEFAULT_MANUAL_START } from './clock.js';
import { RandomSource, agentPortFor } from './ids.js';

/** Real-looking repositories that conversations are opened on. */
const REPOSITORIES = [
  'OpenHands/OpenHands', 'OpenHands/agent-sdk', 'facebook/react', 'vercel/next.js', 'microsoft/TypeScript',
  'rust-lang/rust', 'python/cpython', 'mswjs/msw', 'colinhacks/zod', 'pact-foundation/pact-js',
  'tailwindlabs/tailwindcss', 'vitejs/vite', 'nodejs/node', 'django/django', 'kubernetes/kubernetes',
];
/** Branches conversations work on. */
const BRANCHES = ['main', 'develop', 'fix/flaky-tests', 'feat/dark-mode', 'chore/deps', null];
/** Models conversations run with. */
const LLM_MODELS = ['anthropic/claude-sonnet-4-5-20250929', 'openai/gpt-5-2025-08-07', 'litellm_proxy/claude-opus-4-1', null];
/** What users ask the agent for; the start of a title. */
const TITLE_VERBS = ['Fix', 'Add', 'Refactor', 'Document', 'Speed up', 'Investigate', 'Remove', 'Upgrade'];
/** Sandbox statuses of generated data, in the mix they appear (mostly paused, like a real account). */
const STATUS_MIX: StoredSandboxStatus[] = ['PAUSED', 'RUNNING', 'PAUSED', 'PAUSED', 'RUNNING', 'STARTING', 'PAUSED', 'ERROR'];
/** How far back generated conversations go. */
const HISTORY_MS = 30 * 24 * 3600 * 1000;

/** Options of `generateFixture`. */
export interface GenerateOptions {
  /** How many conversations, each with its own sandbox. */
  conversations: number;
  /** Seed of every generated value. */
  seed?: number;
  /** The instant the data set ends at (its newest record is just before it). */
  now?: string;
  /** Add start tasks (finished and in progress), a conversation whose sandbox is gone, and sub-conversations. */
  showcase?: boolean;
}

/** How fixtures/default.json is made: enough conversations for several pages, every status and trigger. */
export const DEFAULT_FIXTURE_OPTIONS: GenerateOptions = { conversations: 40, seed: 2025, showcase: true };

/** The sandbox specs every generated data set has; the first is the default. */
export function defaultSandboxSpecs(created: string): SandboxSpecInfo[] {
  const spec = (tag: string, env: Record<string, string>): SandboxSpecInfo => ({
    id: `ghcr.io/openhands/agent-server:1.1.0-${tag}`,
    command: ['--port', '8000'],
    created_at: created,
    initial_env: { OPENVSCODE_SERVER_ROOT: '/openhands/.openvscode-server', LOG_JSON: 'true', ...env },
    working_dir: DEFAULT_WORKING_DIR,
  });
  return [spec('python', { PYTHONUNBUFFERED: '1' }), spec('java', { JAVA_HOME: '/usr/lib/jvm/java-17' }), spec('golang', { GOPATH: '/home/openhands/go' })];
}

/** fixtures/empty.json: only the default sandbox spec, like a fresh install (its parsed form). */
export function emptyFixture(): FixtureInput {
  return {
    relative_to: formatDateTime(Date.parse(DEFAULT_MANUAL_START)),
    sandbox_specs: defaultSandboxSpecs('2025-10-01T00:00:00.000000Z').slice(0, 1),
    sandboxes: [], conversations: [], start_tasks: [], events: [], provider_tokens: {}, mcp_config: null, settings: null, secrets: [],
  };
}

/** Where the generator's words and picks come from: faker, or a replay of what it chose. */
export interface Chooser {
  /** One item of `list`. */
  pick<T>(list: readonly T[]): T;
  /** A noun of software (`bandwidth`, `driver`). */
  noun(): string;
  /** A verb in -ing (`parsing`, `hacking`). */
  ingverb(): string;
}

/**
 * A realistic, repeatable data set (see `generateFixture`), its words and picks from `choose`, its
 * user settings `settings`. Every field is written, defaults included: the result is the fixture's
 * parsed form, which a page stores as it is.
 */
export function generateWith(options: GenerateOptions, choose: Chooser, settings: UserSettingsRecord): FixtureInput {
  const random = new RandomSource(options.seed ?? 1);
  const end = Date.parse(options.now ?? DEFAULT_MANUAL_START);
  const n = options.conversations;
  const step = n > 0 ? Math.floor(HISTORY_MS / n) : 0;
  const specs = defaultSandboxSpecs(formatDateTime(end - HISTORY_MS - 3600_000));
  const sandboxes: SandboxRecord[] = [];
  const conversations: ConversationRecord[] = [];
  const start_tasks: FixtureInput['start_tasks'] & object = [];
  const triggers = ConversationTrigger.options;
  const providers = ProviderType.options;

  for (let i = 0; i < n; i++) {
    const createdMs = end - HISTORY_MS + i * step + random.int(0, Math.max(0, step - 1));
    const created = formatDateTime(createdMs, random.int(0, 999));
    const status = STATUS_MIX[i % STATUS_MIX.length]!;
    const sandbox: SandboxRecord = {
      id: random.sandboxId(),
      created_by_user_id: null,
      sandbox_spec_id: specs[i % 7 === 3 ? 1 : i % 11 === 5 ? 2 : 0]!.id,
      status,
      session_api_key: random.sessionKey(),
      agent_port: agentPortFor(i),
      created_at: created,
      status_detail: status === 'ERROR' ? 'Container exited with code 137 (out of memory)' : null,
    };
    sandboxes.push(sandbox);
    const repository = i % 9 === 8 ? null : choose.pick(REPOSITORIES);
    const id = random.uuid();
    const title = [choose.pick(TITLE_VERBS), choose.noun(), choose.ingverb()].join(' ');
    const updated = formatDateTime(createdMs + random.int(1000, 3_600_000), random.int(0, 999));
    conversations.push({
      id,
      version: i % 4 === 1 ? 'V0' : 'V1',
      sandbox_id: sandbox.id,
      created_by_user_id: null,
      title,
      selected_repository: repository,
      selected_branch: repository ? choose.pick(BRANCHES) : null,
      git_provider: repository ? (i % 13 === 6 ? choose.pick(providers) : 'github') : null,
      trigger: triggers[i % triggers.length]!,
      pr_number: i % 5 === 2 ? [random.int(1, 12_000)] : [],
      llm_model: choose.pick(LLM_MODELS),
      parent_conversation_id: null,
      agent_type: i % 10 === 4 ? 'plan' : 'default',
      agent_kind: 'openhands',
      public: i % 6 === 2 ? true : null,
      tags: i % 7 === 1 ? { team: 'frontend' } : {},
      acp_server: null,
      launched_agent_profile: null,
      has_initial_message: i % 3 !== 0,
      agent_turns: i % 3 !== 0 ? 1 + (i % 4) : 0,
      messages: i % 3 !== 0 ? [`Please ${title.toLowerCase()}.`] : [],
      created_at: created,
      updated_at: updated < formatDateTime(end) ? updated : created,
    });
  }

  if (options.showcase && n >= 4) {
    const v1 = conversations.filter((c) => c.version === 'V1');
    // A sub-conversation of the newest V1 conversation, sharing its sandbox.
    const parent = v1.at(-1)!;
    const childCreated = formatDateTime(end - 60_000, random.int(0, 999));
    conversations.push({ ...parent, id: random.uuid(), title: `Plan: ${parent.title}`, agent_type: 'plan', parent_conversation_id: parent.id, created_at: childCreated, updated_at: childCreated, trigger: 'gui' });
    // A conversation whose sandbox was deleted: its sandbox status is MISSING.
    const goneCreated = formatDateTime(end - HISTORY_MS - 60_000, random.int(0, 999));
    conversations.unshift({ ...v1[0]!, id: random.uuid(), sandbox_id: 'oh-agent-server-deleted0000000000000', title: 'Old experiment (sandbox deleted)', created_at: goneCreated, updated_at: goneCreated });
    // Finished start tasks of the newest V1 conversations.
    for (const conversation of v1.slice(-3)) {
      start_tasks.push({
        id: random.uuid(), created_by_user_id: null, status: 'READY', detail: null,
        app_conversation_id: conversation.id, sandbox_id: conversation.sandbox_id,
        request: startRequest(conversation), steps: [], created_at: conversation.created_at, updated_at: conversation.created_at,
      });
    }
    // One failed and one in progress, waiting for a sandbox that is starting.
    const failedAt = formatDateTime(end - 7_200_000, random.int(0, 999));
    start_tasks.push({
      id: random.uuid(), created_by_user_id: null, status: 'ERROR', detail: 'Sandbox status: SandboxStatus.ERROR',
      app_conversation_id: random.uuid(), sandbox_id: sandboxes.find((s) => s.status === 'ERROR')?.id ?? null,
      request: startRequest({ selected_repository: 'OpenHands/OpenHands', selected_branch: 'main', git_provider: 'github', title: null, trigger: 'gui', pr_number: [], llm_model: null, agent_type: 'default' }),
      steps: [], created_at: failedAt, updated_at: failedAt,
    });
    const startingSandbox = sandboxes.findLast((s) => s.status === 'STARTING');
    const workingAt = formatDateTime(end - 1000, random.int(0, 999));
    start_tasks.push({
      id: random.uuid(), created_by_user_id: null, status: 'WAITING_FOR_SANDBOX', detail: null,
      app_conversation_id: random.uuid(), sandbox_id: startingSandbox?.id ?? null,
      request: startRequest({ selected_repository: 'mswjs/msw', selected_branch: 'main', git_provider: 'github', title: 'Add a request journal', trigger: 'gui', pr_number: [], llm_model: LLM_MODELS[0]!, agent_type: 'default' }),
      steps: [], created_at: workingAt, updated_at: workingAt,
    });
  }

  conversations.sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
  return {
    relative_to: formatDateTime(end), sandbox_specs: specs, sandboxes, conversations, start_tasks, events: [], provider_tokens: {}, mcp_config: null,
    settings,
    secrets: [
      { name: 'NPM_TOKEN', description: 'Publishes the packages', value: 'fake-npm-token' },
      { name: 'SENTRY_DSN', description: null, value: 'fake-sentry-dsn' },
    ],
  };
}

function startRequest(c: Pick<ConversationRecord, 'selected_repository' | 'selected_branch' | 'git_provider' | 'title' | 'trigger' | 'pr_number' | 'llm_model' | 'agent_type'>): StartTaskRecord['request'] {
  return AppConversationStartRequest.parse({
    initial_message: { role: 'user', content: [{ type: 'text', text: c.title ? `Please ${c.title.toLowerCase()}.` : 'Hello!' }], run: true },
    llm_model: c.llm_model,
    selected_repository: c.selected_repository,
    selected_branch: c.selected_branch,
    git_provider: c.git_provider,
    title: c.title,
    trigger: c.trigger,
    pr_number: c.pr_number,
    agent_type: c.agent_type,
  });
}
