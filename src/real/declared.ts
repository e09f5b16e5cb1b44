/**
 * The differences between the fake and the real servers that are declared, each with its reason:
 * the one list the differential suite (`npm run test:real`) and the README's "Checked against the
 * real OpenHands" read. A fact is `scenario › step › path`; an entry names facts by a pattern (`*`
 * any run of characters) and, where it matters, what each side had there. A real server's bug is
 * named here, never copied.
 */
import type { Fact } from './compare.js';

/** Why a difference stands. */
export type DifferenceKind =
  /** The real server is wrong (a crash, a bug): named, not copied. */
  | 'real-bug'
  /** The fake differs on purpose (determinism, no real machine behind it). */
  | 'deliberate'
  /** Left for later: a known gap of the fake, with what it would take. */
  | 'gap';

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
    fact: 'agent server › * › body › *stats.usage_to_metrics*',
    kind: 'gap',
    reason:
      "the fake registers the agent's LLM in a conversation's statistics when it starts, under the usage id 'agent' (the SDK's register_llm of Aug 2026); 1.58.2 starts with none and registers 'default' at the first LLM call",
  },
  {
    fact: 'agent server › run * › events › stats updates published',
    real: 'true',
    fake: 'false',
    kind: 'gap',
    reason:
      "the real agent publishes a stats state update after each LLM call, in an order that races its other updates; the fake's scripted agent publishes one only for a script's `stats` step",
  },
  {
    fact: 'agent server › POST /api/conversations with a workspace without working_dir › status',
    real: '500',
    fake: '422',
    kind: 'real-bug',
    reason:
      'the real agent server answers 500 Internal Server Error (the LocalWorkspace without working_dir fails after validation); the fake answers the 422 missing at ["body", "workspace", "working_dir"] the model implies: a crash is named, not copied',
  },
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
