/**
 * The record of a conversation created on the agent host (`POST /api/conversations`), built whole:
 * every field its schema's output already (`ConversationRecord`, its defaults given, in its key
 * order), so `startHostConversation` stores it without a second parse (`Table.insertValidated`),
 * weighed by what differs from one create to the next (`hostRecordSize`).
 */
import type { StartConversationRequest } from '../../schemas/agent-conversations.js';
import type { ConversationRecord } from '../../schemas/records.js';
import type { DomainState } from '../store/state.js';
import { fieldWeight, sizeOf, stringLength } from '../store/budget.js';
import { registeredMarketplaces } from './plugins.js';
import { redactSecrets } from '../store/redact.js';
import { acpFields } from './acp-agent.js';

/** An LLM's fields that hold a credential: never kept (`ConversationInfo` shows them `null`, as the real server masks them). */
export const LLM_CREDENTIALS = new Set(['api_key', 'aws_access_key_id', 'aws_secret_access_key', 'aws_session_token']);

/**
 * The settings of a request's LLM worth keeping: every field but its model (kept as `llm_model`) and
 * its credentials, with any secret elsewhere in them masked (an `Authorization` in `extra_headers`,
 * a password in `base_url`, a key in `litellm_extra_body`: `redactSecrets`).
 */
function llmSettings(llm: Record<string, unknown> | undefined): Record<string, unknown> {
  if (llm === undefined) return {};
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(llm)) if (key !== 'model' && !LLM_CREDENTIALS.has(key)) kept[key] = llm[key];
  return redactSecrets(kept) as Record<string, unknown>;
}

/** The kind of an agent's condenser, `null` without one (a pipeline names its own kind). */
function condenserKind(agent: Readonly<Record<string, unknown>>): string | null {
  const condenser = agent.condenser;
  if (condenser === null || typeof condenser !== 'object') return null;
  const kind = (condenser as { kind?: unknown }).kind;
  return typeof kind === 'string' ? kind : 'LLMSummarizingCondenser';
}

/**
 * A new host conversation's record: the request's values (validated by its own schema, as strict
 * as the record's), the state's ids and stamp, the record's defaults.
 */
export function hostConversationRecord(
  state: DomainState,
  request: StartConversationRequest,
  made: { id: string; sandboxId: string; parentId: string | null; secretNames: string[]; now: string },
): ConversationRecord {
  const agent = request.agent ?? { kind: 'Agent' };
  return {
    id: made.id,
    version: 'V1',
    sandbox_id: made.sandboxId,
    created_by_user_id: state.options.userId,
    title: null,
    selected_repository: null,
    selected_branch: null,
    git_provider: null,
    trigger: null,
    pr_number: [],
    llm_model: agent.llm?.model ?? null,
    parent_conversation_id: made.parentId,
    agent_type: 'default',
    agent_kind: 'openhands',
    public: null,
    tags: request.tags,
    acp_server: null,
    launched_agent_profile: null,
    has_initial_message: Boolean(request.initial_message?.content.length),
    agent_turns: 0,
    messages: [],
    agent_stream: agent.llm?.stream === true ? true : undefined,
    agent_confirm: request.confirmation_policy?.kind === 'AlwaysConfirm' ? true : undefined,
    agent_host: {
      created_here: true,
      agent_kind: agent.kind,
      working_dir: request.workspace.working_dir,
      max_iterations: request.max_iterations,
      stuck_detection: request.stuck_detection,
      security_analyzer: request.security_analyzer ?? null,
      secret_names: made.secretNames,
      leaf_event_id: null,
      head_is_empty: false,
      copied_events: 0,
      copied_metrics: false,
      forked_from_conversation_id: null,
      forked_from_event_id: null,
      acp_model: null,
      acp: agent.kind === 'ACPAgent' ? acpFields(agent) : null,
      marketplaces: registeredMarketplaces(request),
      goal: null,
      llm: llmSettings(agent.llm),
      condenser: condenserKind(agent),
      tools: agent.tools?.map((tool) => tool.name) ?? null,
      llm_switches: [],
      llm_calls: [],
    },
    created_at: made.now,
    updated_at: made.now,
  };
}

/** The fields of a host record that differ from one create to the next; every other field is the same in each (`hostConversationRecord`). */
const VARYING = [
  'id',
  'sandbox_id',
  'created_by_user_id',
  'llm_model',
  'parent_conversation_id',
  'tags',
  'has_initial_message',
  'agent_stream',
  'agent_confirm',
  'created_at',
  'updated_at',
] as const;
/** The same of its `agent_host`. */
const HOST_VARYING = [
  'agent_kind',
  'working_dir',
  'max_iterations',
  'stuck_detection',
  'security_analyzer',
  'secret_names',
  'marketplaces',
  'llm',
  'condenser',
  'tools',
  'acp',
] as const;

/** What the fields every host record has the same weigh (with the record's and `agent_host`'s braces): measured on the first record. */
let constantWeight: number | undefined;

/** What a record's varying fields weigh (`fieldWeight` of each: `sizeOf` is 2 plus the sum over all its fields, `agent_host`'s the same inside). */
function varyingWeight(record: ConversationRecord): number {
  let weight = 0;
  for (const key of VARYING) weight += weightOfField(key, record[key]);
  const host = record.agent_host!;
  for (const key of HOST_VARYING) weight += weightOfField(key, host[key]);
  return weight;
}

/** `fieldWeight`, a string, `null` or a boolean counted at once (`"key":` and a comma, the value's JSON length). */
function weightOfField(key: string, value: unknown): number {
  if (typeof value === 'string') return key.length + 4 + stringLength(value);
  if (value === null || value === true) return key.length + 8;
  if (value === false) return key.length + 9;
  return fieldWeight(key, value);
}

/**
 * `sizeOf(record)` of a record `hostConversationRecord` built, weighing only what differs from one
 * create to the next (the record's ~50 keys took a create 2-3 µs to walk, issue 31): the same
 * number, checked against `sizeOf` on many creates by `test/domain/budget-weight.test.ts`.
 */
export function hostRecordSize(record: ConversationRecord): number {
  const varying = varyingWeight(record);
  constantWeight ??= sizeOf(record) - varying;
  return constantWeight + varying;
}
