/**
 * What the fake stores. These are the records of the @msw/data collections, the shape of
 * fixtures and of `fake.snapshot()`. Live fields (status derived from time, URLs, keys shown
 * only while running) are computed from them when read.
 */
import * as z from 'zod/mini';
// NEVER from zod/v4/core, not zod/mini's namespace: through the namespace, esbuild's code splitting puts
// zod's JSON Schema writer (only later routes use it) in a page's first chunk (issue 30).
import { NEVER } from 'zod/v4/core';
import { ConversationTrigger, DateTime as WireDateTime, ProviderType } from './common.js';
import { canonicalDateTime, parseDateTimeMicros } from './datetime.js';
import { AgentType, AppConversationStartRequest, AppConversationStartTaskStatus, LaunchedAgentProfile } from './app-conversation.js';
import { MCPConfig } from './mcp.js';

/**
 * A stored datetime: any ISO 8601 form is accepted and kept in the canonical form, so times sort as
 * strings. One that names no real instant (month 13) is refused as the schema's own error: a
 * stored time always reads back (issue 29, finding 3).
 */
const DateTime = z.pipe(
  WireDateTime,
  z.transform((value: string, context) => {
    if (!Number.isFinite(parseDateTimeMicros(value))) {
      context.issues.push({ code: 'custom', message: 'expected an ISO 8601 datetime of a real instant', input: value });
      return NEVER;
    }
    return canonicalDateTime(value);
  }),
);

/** Sandbox states that are stored; MISSING is the absence of a record. */
export const StoredSandboxStatus = z.enum(['STARTING', 'RUNNING', 'PAUSED', 'ERROR']);
export type StoredSandboxStatus = z.infer<typeof StoredSandboxStatus>;

/** A stored sandbox. `status_changed_at` anchors time-driven transitions. */
export const SandboxRecord = z.strictObject({
  id: z.string().check(z.minLength(1)),
  created_by_user_id: z._default(z.nullable(z.string()), null),
  sandbox_spec_id: z.string().check(z.minLength(1)),
  status: StoredSandboxStatus,
  status_changed_at: z.optional(DateTime),
  session_api_key: z.string().check(z.minLength(1)),
  agent_port: z.int().check(z.gte(1), z.lte(65535)),
  created_at: DateTime,
  /** Why it is stuck or failed, as the runtime reported it (shown as `status_detail`). */
  status_detail: z._default(z.nullable(z.string()), null),
  /** Files clients uploaded through its agent server, by absolute path, base64 (its filesystem keeps them while it lives). */
  uploaded_files: z.optional(z.record(z.string(), z.string())),
});
export type SandboxRecord = z.infer<typeof SandboxRecord>;

/** What the agent host keeps of a conversation it holds, besides the app-level record (no secret values: names only). */
export const AgentHostState = z.strictObject({
  /** Created on the agent host (`POST /api/conversations`), not started through the app server (which does not list it). */
  created_here: z._default(z.boolean(), false),
  agent_kind: z._default(z.string(), 'Agent'),
  working_dir: z.optional(z.string()),
  max_iterations: z._default(z.int(), 500),
  stuck_detection: z._default(z.boolean(), true),
  security_analyzer: z._default(z.nullable(z.record(z.string(), z.unknown())), null),
  secret_names: z._default(z.array(z.string()), []),
  /** HEAD when a client moved it (`navigate`) or a fork set it; `null`: the log's last event that is no state update. */
  leaf_event_id: z._default(z.nullable(z.string()), null),
  /** HEAD moved to the empty tree (`navigate` to `null`): the next event is a new root. */
  head_is_empty: z._default(z.boolean(), false),
  /** Events at the start of the log a fork copied: its state (last user message, statistics) starts after them. */
  copied_events: z._default(z.int().check(z.gte(0)), 0),
  /** Whether the fork kept the source's statistics (`reset_metrics` false). */
  copied_metrics: z._default(z.boolean(), false),
  forked_from_conversation_id: z._default(z.nullable(z.string()), null),
  forked_from_event_id: z._default(z.nullable(z.string()), null),
  acp_model: z._default(z.nullable(z.string()), null),
  /** An ACP agent's `acp_*` fields the start request gave (`null` for another agent). */
  acp: z._default(z.nullable(z.record(z.string(), z.unknown())), null),
  /** The plugin marketplaces its agent context registers, by name (`registered_marketplaces`); `null` without an agent context. */
  marketplaces: z._default(z.nullable(z.array(z.string())), []),
  goal: z._default(
    z.nullable(
      z.object({
        objective: z.string(),
        max_iterations: z.int(),
        iteration: z.int(),
        status: z.enum(['running', 'interrupted', 'complete', 'capped']),
      }),
    ),
    null,
  ),
  /** The settings of the agent's LLM the client gave besides its model, its credentials left out (`ConversationInfo` shows them over the defaults). */
  llm: z._default(z.record(z.string(), z.unknown()), {}),
  /** The kind of the agent's condenser (`agent.condenser.kind`), `null` without one; an agent the app server starts has its summarizing one. */
  condenser: z._default(z.nullable(z.string()), 'LLMSummarizingCondenser'),
  /**
   * What a recording answered of the conversation that the fake does not make from its records: its
   * `stats` and a socket's `full_state` value, shown while the log is the `events` long it was then.
   */
  recorded: z.optional(
    z.strictObject({
      events: z.int().check(z.gte(0)),
      stats: z.optional(z.record(z.string(), z.unknown())),
      full_state: z.optional(z.record(z.string(), z.unknown())),
    }),
  ),
  /** The tools the start request named its agent (`null`: none named). */
  tools: z._default(z.nullable(z.array(z.string())), null),
  /**
   * The agent's LLM switches (`switch_llm`, `switch_profile`), oldest first: from the log's `at`th
   * event on, its calls count under `usage_id`; `from_*` is what it was before.
   */
  llm_switches: z._default(
    z.array(
      z.strictObject({
        at: z.int().check(z.gte(0)),
        usage_id: z.string(),
        model: z.string(),
        from_usage_id: z.string(),
        from_model: z.string(),
      }),
    ),
    [],
  ),
  /** LLM calls that publish no event (`ask_agent`'s), oldest first, each after the log's `at`th event. */
  llm_calls: z._default(
    z.array(
      z.strictObject({
        at: z.int().check(z.gte(0)),
        usage_id: z.string(),
        model: z.string(),
        prompt: z.int().check(z.gte(0)),
        completion: z.int().check(z.gte(0)),
        response_id: z.string(),
        timestamp: z.number(),
      }),
    ),
    [],
  ),
});
export type AgentHostState = z.output<typeof AgentHostState>;

/** A stored conversation, V0 (legacy) or V1. Its status is never stored: it is its sandbox's. */
export const ConversationRecord = z.strictObject({
  id: z.string().check(z.minLength(1)),
  version: z.enum(['V0', 'V1']),
  sandbox_id: z.string().check(z.minLength(1)),
  created_by_user_id: z._default(z.nullable(z.string()), null),
  title: z._default(z.nullable(z.string()), null),
  selected_repository: z._default(z.nullable(z.string()), null),
  selected_branch: z._default(z.nullable(z.string()), null),
  git_provider: z._default(z.nullable(ProviderType), null),
  trigger: z._default(z.nullable(ConversationTrigger), null),
  pr_number: z._default(z.array(z.int()), []),
  llm_model: z._default(z.nullable(z.string()), null),
  parent_conversation_id: z._default(z.nullable(z.string()), null),
  agent_type: z._default(AgentType, 'default'),
  agent_kind: z._default(z.string(), 'openhands'),
  public: z._default(z.nullable(z.boolean()), null),
  tags: z._default(z.record(z.string(), z.string()), {}),
  acp_server: z._default(z.nullable(z.string()), null),
  launched_agent_profile: z._default(z.nullable(LaunchedAgentProfile), null),
  has_initial_message: z._default(z.boolean(), false),
  /** Messages the agent has been given to work on (the initial one included): its metrics and workspace changes grow with them. */
  agent_turns: z._default(z.int().check(z.gte(0)), 0),
  /** The text of the user's messages, oldest first (what a trajectory download holds). */
  messages: z._default(z.array(z.string()), []),
  agent_started_at: z.optional(DateTime),
  /** Steps of the agent's current run already published as events (the rest are due as time passes); absent: the run has no events to publish (a fixture's past). */
  agent_steps_done: z.optional(z.int().check(z.gte(0))),
  /** The agent's status when it is not what time says (paused by a client); absent otherwise. */
  agent_status: z.optional(z.enum(['paused', 'error', 'stuck', 'waiting_for_confirmation', 'idle', 'running', 'finished'])),
  /** The agent's LLM streams (`llm.stream`): its messages are preceded by `StreamingDeltaEvent` frames. */
  agent_stream: z.optional(z.boolean()),
  /** The conversation's confirmation policy: with `AlwaysConfirm`, each action waits for the client's answer. */
  agent_confirm: z.optional(z.boolean()),
  /** Which of the fake's agent scripts the current run follows (absent: the built-in one), how many steps it has, and after which its file edit is done. */
  agent_script: z.optional(z.int().check(z.gte(-1))),
  agent_steps_total: z.optional(z.int().check(z.gte(0))),
  agent_edit_after: z.optional(z.int().check(z.gte(0))),
  /** When a client paused the agent (a run goes on from there when it runs again). */
  agent_paused_at: z.optional(DateTime),
  /** What the agent host keeps besides (its workspace, analyzer, secret names, goal, fork origin); absent: the defaults. */
  agent_host: z.optional(AgentHostState),
  created_at: DateTime,
  updated_at: DateTime,
});
export type ConversationRecord = z.infer<typeof ConversationRecord>;

/** A stored start task. `app_conversation_id` is assigned at once but shown only when READY. */
export const StartTaskRecord = z.strictObject({
  id: z.guid(),
  created_by_user_id: z._default(z.nullable(z.string()), null),
  status: AppConversationStartTaskStatus,
  status_changed_at: z.optional(DateTime),
  detail: z._default(z.nullable(z.string()), null),
  app_conversation_id: z.guid(),
  sandbox_id: z._default(z.nullable(z.string()), null),
  request: AppConversationStartRequest,
  /** Every status the task has been in, with when and why (what stream-start streams). */
  steps: z._default(
    z.array(z.object({ status: AppConversationStartTaskStatus, at: DateTime, detail: z._default(z.nullable(z.string()), null) })),
    [],
  ),
  created_at: DateTime,
  updated_at: DateTime,
});
export type StartTaskRecord = z.infer<typeof StartTaskRecord>;

/** A stored git provider token, one record per provider. The token is a secret: never returned. */
export const ProviderTokenRecord = z.strictObject({
  provider: ProviderType,
  token: z.nullable(z.string()),
  host: z.nullable(z.string()),
  user_id: z.nullable(z.string()),
});
export type ProviderTokenRecord = z.infer<typeof ProviderTokenRecord>;

/** The stored user-level MCP configuration (a collection of at most one record). */
export const MCPConfigRecord = z.strictObject({ config: MCPConfig });
export type MCPConfigRecord = z.infer<typeof MCPConfigRecord>;

/**
 * One event of a conversation's log, as the agent server publishes it: `event` is the wire event
 * (`kind`, `id`, `timestamp`, `source` and its kind's fields).
 */
export const AgentEventRecord = z.strictObject({
  id: z.string().check(z.minLength(1)),
  conversation_id: z.string().check(z.minLength(1)),
  created_at: DateTime,
  event: z.record(z.string(), z.unknown()),
});
export type AgentEventRecord = z.infer<typeof AgentEventRecord>;
