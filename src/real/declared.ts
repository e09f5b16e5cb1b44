/**
 * The differences between the fake and the real servers that are declared, each with its reason:
 * the one list the differential suite (`npm run test:real`) and the README's "Checked against the
 * real OpenHands" read. A fact is `scenario › step › path`; an entry names facts by a pattern (`*`
 * any run of characters) and, where it matters, what each side had there. A real server's bug is
 * named here, never copied.
 */
import type { Fact } from './compare.js';
import { DECLARED_CLIENT_DIFFERENCES } from './declared-client.js';

/** Why a difference stands. */
export type DifferenceKind =
  /** The real server is wrong (a crash, a bug): named, not copied. */
  | 'real-bug'
  /** The fake differs on purpose (determinism, no real machine behind it). */
  | 'deliberate'
  /** Left for later: a known gap of the fake, with what it would take. */
  | 'gap'
  /** What this machine cannot give the real server (GitHub, Docker, VS Code): the check cannot run here. */
  | 'environment';

/** One declared difference. */
export interface DeclaredDifference {
  /** The facts it covers: a pattern of fact ids (`*` any run of characters). */
  readonly fact: string;
  /** What the real server had there (a shape or value; absent: anything). */
  readonly real?: string;
  /** What the fake had there (absent: anything). */
  readonly fake?: string;
  /** Which kind of difference. */
  readonly kind: DifferenceKind;
  /** Why it stands, in a sentence. */
  readonly reason: string;
}

/** Why the fake's app server has fields 1.11.0 lacks: it copies a newer source. */
const NEWER_APP_SOURCE =
  'the fake copies the newest app-server source (OpenHands main, Aug 2026), newer than openhands-ai 1.11.0 on PyPI (Jul 2026), the newest release that runs here';

/** The declared differences. */
export const DECLARED_REAL_DIFFERENCES: readonly DeclaredDifference[] = [
  // The app server.
  {
    fact: 'app server › GET /server_info › body › resources.*',
    real: 'number',
    fake: 'absent',
    kind: 'deliberate',
    reason:
      "the fake has no machine to measure: the real app server reads its own CPU, memory, disk and I/O with psutil; the fake's server_info leaves resources out",
  },
  {
    fact: 'app server › GET /server_info › body › *',
    real: 'absent',
    kind: 'deliberate',
    reason:
      "the fake's app server names itself and its version in server_info (what its banner and the inspector show); 1.11.0 writes uptime, idle_time and resources only",
  },
  {
    fact: 'app server › * › body › *request.observability_*',
    real: 'absent',
    fake: 'null',
    kind: 'deliberate',
    reason: `${NEWER_APP_SOURCE}: its start request has the observability fields`,
  },
  {
    fact: 'app server › * › body › *status_detail',
    real: 'absent',
    fake: 'null',
    kind: 'deliberate',
    reason: `${NEWER_APP_SOURCE}: its SandboxInfo has status_detail`,
  },
  {
    fact: 'app server › GET /api/v1/app-conversations?ids=zzz › status',
    real: '400',
    fake: '422',
    kind: 'deliberate',
    reason: `${NEWER_APP_SOURCE}: it types ids as UUIDs (422 uuid_parsing at ["query", "ids", i]); 1.11.0 parses them in batch_get_app_conversations and answers 400 "Invalid UUID format for ids: [...]"`,
  },
  {
    fact: 'app server › GET /api/v1/sandbox-specs/search › body › items[].*',
    kind: 'deliberate',
    reason:
      "the fake's sandbox spec is the one a Docker or remote deployment lists (the agent-server image, its command and environment); the real server here runs process sandboxes, whose spec starts python -m openhands.agent_server",
  },
  ...['/api/conversations', '/api/settings', '/api/options/models'].map(
    (path): DeclaredDifference => ({
      fact: `app server › GET ${path} › status`,
      real: '404',
      fake: '200',
      kind: 'deliberate',
      reason:
        "the fake serves the V0 routes (/api/conversations, /api/settings, /api/options/models) for the Nov 2025 web app and Agent Canvas's legacy calls; the 1.x app server no longer serves them",
    }),
  ),
  {
    fact: 'app server › POST /api/v1/app-conversations with a message of unknown role › body › detail[].type',
    real: '="literal_error"',
    fake: '="enum"',
    kind: 'gap',
    reason:
      "SendMessageRequest.role is a Literal in the real model (literal_error); the fake's role is a zod enum, which its 422 mapping reports as a Python Enum would ('enum'): telling the two apart needs each schema marked",
  },
  // The agent server.
  {
    fact: 'agent server › run a rate-limited LLM › events › *',
    kind: 'real-bug',
    reason:
      "the real agent server publishes a rate-limited run's ConversationErrorEvent once or twice (seen both ways here), racing its running status; the fake publishes it once, after running, then the error status",
  },
  {
    fact: 'agent server › * › stats updates published',
    real: 'true',
    fake: 'false',
    kind: 'gap',
    reason:
      "the real agent publishes a stats state update after each LLM call, in an order that races its other updates; the fake's scripted agent publishes one only for a script's `stats` step",
  },
  {
    fact: 'agent server › GET /api/conversations/{id}/events/* › body › items[]*',
    kind: 'gap',
    reason:
      "the real agent publishes a stats state update after each LLM call (the title's too), landing where its thread's race puts it, so a page of its events holds one where the fake's holds another event; every event field agrees otherwise",
  },
  {
    fact: 'agent server › GET /api/settings/secrets/{name} › status',
    real: '200',
    fake: '404',
    kind: 'deliberate',
    reason:
      "the real agent server answers a stored secret's value by its name; the fake never returns a secret's value, anywhere, and answers 404",
  },
  {
    fact: 'agent server › POST /api/conversations with a workspace without working_dir › status',
    real: '500',
    fake: '422',
    kind: 'real-bug',
    reason:
      'the real agent server answers 500 Internal Server Error (the LocalWorkspace without working_dir fails after validation); the fake answers the 422 missing at ["body", "workspace", "working_dir"] the model implies: a crash is named, not copied',
  },
  // The official TypeScript client's calls (test/real/typescript-client.real.test.ts).
  ...DECLARED_CLIENT_DIFFERENCES,
];

/** A pattern as a regular expression (`*` any run of characters, the rest as it is). */
const patternOf = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

const compiled = new Map<string, RegExp>();

/** The declared difference that covers `fact`, or `null`. */
export function declaredFor(fact: Fact, list: readonly DeclaredDifference[] = DECLARED_REAL_DIFFERENCES): DeclaredDifference | null {
  for (const entry of list) {
    let pattern = compiled.get(entry.fact);
    if (!pattern) {
      pattern = patternOf(entry.fact);
      compiled.set(entry.fact, pattern);
    }
    if (!pattern.test(fact.id)) continue;
    if (entry.real !== undefined && entry.real !== fact.real) continue;
    if (entry.fake !== undefined && entry.fake !== fact.fake) continue;
    return entry;
  }
  return null;
}

/** A contract interaction (or a provider state) the real servers fail, declared with its reason: `fakehands verify --declared`. */
export interface DeclaredContractDifference {
  /** The failure it covers: a pattern (`*` any run of characters) of `fakehands verify`'s FAILED line after `FAILED: `. */
  readonly failure: string;
  /** Which kind of difference. */
  readonly kind: DifferenceKind;
  /** Why it stands, in a sentence. */
  readonly reason: string;
}

/** Why the states that start an app conversation cannot be set up on the real app server here. */
const NO_GITHUB =
  "the state starts an app conversation on the repository OpenHands/OpenHands, which the real app server clones from GitHub with the user's provider token: this machine has neither (AssertionError in auth_user_context.get_provider_handler)";
/** Why the V0 interactions fail on the 1.x app server. */
const V0_GONE = 'a V0 route the fake serves for the Nov 2025 web app; the 1.x app server no longer serves it (404)';

/** The contract failures of the real servers that are declared (the app server 1.11.0, and through it its sandboxes' agent server 1.34.0). */
export const DECLARED_CONTRACT_DIFFERENCES: readonly DeclaredContractDifference[] = [
  { failure: 'provider state "an app conversation*exists" failed: *', kind: 'environment', reason: NO_GITHUB },
  { failure: 'interaction failed: Given an app conversation* exists - *', kind: 'environment', reason: NO_GITHUB },
  {
    failure: 'interaction failed: Given a RUNNING sandbox exists - a request for a running sandbox by id (*status_detail*',
    kind: 'deliberate',
    reason: `${NEWER_APP_SOURCE}: its SandboxInfo has status_detail`,
  },
  {
    failure: 'interaction failed: Given a sandbox spec exists - a request for the sandbox specs (*initial_env*',
    kind: 'deliberate',
    reason: "the fake's sandbox spec is a Docker or remote deployment's (its environment); the real server here runs process sandboxes",
  },
  {
    failure: 'interaction failed: Given a sandbox spec exists - a request to start a sandbox from the default spec (*',
    kind: 'deliberate',
    reason:
      "the real process sandbox service answers the start only once the agent server is up (RUNNING, with its key: process_sandbox_service.py); the fake answers STARTING at once, as the Docker and remote services do, and the seed's lifecycle says",
  },
  ...[
    'Given the service is up - a request to create a conversation on a repository',
    'Given the service is up - a request to create a conversation with an unknown git provider',
    'Given the client sends no session API key - a request to create a conversation without a session API key',
    'Given the service is up - a request to store a git provider token',
    'Given the service is up - a request to store a token for a provider that does not exist',
    'Given the client sends no session API key - a request to store git providers without a session API key',
  ].map((name): DeclaredContractDifference => ({ failure: `interaction failed: ${name} (*`, kind: 'deliberate', reason: V0_GONE })),
  {
    failure: 'interaction failed: Given a conversation whose agent has finished a run - a request for the VS Code URL (*',
    kind: 'environment',
    reason: 'VS Code is not installed in the process sandboxes here (OH_ENABLE_VSCODE off): the real agent server answers 503',
  },
  {
    failure: "interaction failed: Given an agent server is running - a request for the user's LLM profiles (*active_profile*",
    kind: 'deliberate',
    reason:
      "the sandboxes' agent server is 1.34.0 (pinned by openhands-ai 1.11.0), which names no active profile before one is activated; the fake copies the newest agent server, whose default profile is active",
  },
];

/** The declared contract difference that covers a `fakehands verify` failure line, or `null`. */
export function declaredContractFailure(
  failure: string,
  list: readonly DeclaredContractDifference[] = DECLARED_CONTRACT_DIFFERENCES,
): DeclaredContractDifference | null {
  return list.find((entry) => patternOf(entry.failure).test(failure)) ?? null;
}
