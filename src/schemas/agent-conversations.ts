/**
 * The request bodies of the agent server's conversation routes, as openhands-agent-server
 * `models.py` and openhands-sdk `conversation/request.py` declare them (Aug 2026):
 * `StartConversationRequest`, `UpdateConversationRequest`, `ForkConversationRequest`,
 * `NavigateConversationRequest`, `StartGoalRequest`, `AskAgentRequest`, `UpdateSecretsRequest`,
 * `SetSecurityAnalyzerRequest`, and the embedded bodies of `switch_llm`, `switch_profile` and
 * `switch_acp_model`. Fields a client reads back are typed; the agent's own config passes.
 */
import * as z from 'zod/mini';
import { SendMessageRequest } from './app-conversation.js';
import { Uuid } from './common.js';

/** Tag keys: lowercase alphanumeric (`conversation/types.py`, `_validate_tags`). */
const TAG_KEY = /^[a-z0-9]+$/;
/** Most characters of a tag's value. */
export const MAX_TAG_VALUE = 256;

/** `ConversationTags`: keys lowercase alphanumeric, values up to 256 characters. */
export const ConversationTags = z
  .record(z.string(), z.string().check(z.maxLength(MAX_TAG_VALUE)))
  .check(z.refine((tags) => Object.keys(tags).every((key) => TAG_KEY.test(key)), 'Tag keys must be lowercase alphanumeric'));

/** An agent (`Agent` or `ACPAgent`): its kind and its LLM (a model name); the rest of its config passes. */
export const AgentSpec = z.looseObject({
  kind: z._default(z.string(), 'Agent'),
  llm: z.optional(z.looseObject({ model: z._default(z.string(), 'claude-sonnet-4-5-20250929') })),
});

/** A `LocalWorkspace`: its working directory (the TypeScript client adds `type: "local"`). */
export const LocalWorkspaceSpec = z.looseObject({ working_dir: z.string() });

/** A confirmation policy (`AlwaysConfirm`, `NeverConfirm`, `ConfirmRisky`). */
export const ConfirmationPolicySpec = z.looseObject({ kind: z.enum(['AlwaysConfirm', 'NeverConfirm', 'ConfirmRisky']) });

/** A security analyzer (`LLMSecurityAnalyzer`, ...): its kind. */
export const SecurityAnalyzerSpec = z.looseObject({ kind: z.string() });

/** A secret: a plain string, `{"value": ...}`, or a `SecretSource` (`StaticSecret`, `LookupSecret`). */
export const SecretSourceSpec = z.union([z.string(), z.looseObject({ kind: z.optional(z.string()), value: z.optional(z.string()) })]);

/** `POST /api/conversations` (`StartConversationRequest`): one of `agent`, `agent_settings`, `agent_profile_id`. */
export const StartConversationRequest = z
  .looseObject({
    agent: z.optional(z.nullable(AgentSpec)),
    agent_settings: z.optional(z.nullable(z.looseObject({}))),
    agent_profile_id: z.optional(z.nullable(Uuid)),
    workspace: LocalWorkspaceSpec,
    conversation_id: z.optional(z.nullable(Uuid)),
    parent_conversation_id: z.optional(z.nullable(Uuid)),
    confirmation_policy: z.optional(ConfirmationPolicySpec),
    security_analyzer: z.optional(z.nullable(SecurityAnalyzerSpec)),
    initial_message: z.optional(z.nullable(SendMessageRequest)),
    max_iterations: z._default(z.int().check(z.gte(1)), 500),
    stuck_detection: z._default(z.boolean(), true),
    secrets: z._default(z.record(z.string(), SecretSourceSpec), {}),
    tags: z._default(ConversationTags, {}),
    hook_config: z.optional(z.nullable(z.looseObject({}))),
  })
  .check(
    z.refine(
      (r) => !(r.agent_profile_id && (r.agent || r.agent_settings)),
      '`agent_profile_id` is mutually exclusive with `agent` and `agent_settings`',
    ),
    z.refine(
      (r) => Boolean(r.agent || r.agent_settings || r.agent_profile_id),
      'One of `agent`, `agent_settings`, or `agent_profile_id` must be provided',
    ),
  );
export type StartConversationRequest = z.output<typeof StartConversationRequest>;

/** `PATCH /api/conversations/{id}` (`UpdateConversationRequest`). */
export const UpdateConversationRequest = z.object({
  title: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(200)))),
  tags: z.optional(z.nullable(ConversationTags)),
});

/** `POST .../fork` (`ForkConversationRequest`). */
export const ForkConversationRequest = z.object({
  id: z.optional(z.nullable(Uuid)),
  title: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  tags: z.optional(z.nullable(ConversationTags)),
  reset_metrics: z._default(z.boolean(), true),
  from_event_id: z.optional(z.nullable(z.string())),
});

/** `POST .../navigate` (`NavigateConversationRequest`): `null` selects the empty tree. */
export const NavigateConversationRequest = z.object({ event_id: z.optional(z.nullable(z.string())) });

/** `POST .../goal` (`StartGoalRequest`). */
export const StartGoalRequest = z.object({ objective: z.string(), max_iterations: z._default(z.int().check(z.gte(1)), 10) });

/** `POST .../ask_agent` (`AskAgentRequest`). */
export const AskAgentRequest = z.object({ question: z.string() });

/** `POST .../secrets` (`UpdateSecretsRequest`). */
export const UpdateSecretsRequest = z.object({ secrets: z.record(z.string(), SecretSourceSpec) });

/** `POST .../security_analyzer` (`SetSecurityAnalyzerRequest`): the field is required, `null` removes the analyzer. */
export const SetSecurityAnalyzerRequest = z.object({ security_analyzer: z.nullable(SecurityAnalyzerSpec) });

/** `POST .../generate_title` (v1.11.4 `GenerateTitleRequest`). */
export const GenerateTitleRequest = z.object({
  max_length: z._default(z.int().check(z.gte(1), z.lte(200)), 50),
  llm: z.optional(z.nullable(z.looseObject({}))),
});

/** `{"response": "..."}` (`AskAgentResponse`, `AgentResponseResult`). */
export const AgentTextResponse = z.object({ response: z.string() });

/** `{"title": "..."}` (v1.11.4 `GenerateTitleResponse`). */
export const GenerateTitleResponse = z.object({ title: z.string() });

export { AgentHostState } from './records.js';
