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
import { isJsonObject, laxFloat, modelField, pydanticIssue, pythonStr } from './helpers.js';

/** Tag keys: lowercase alphanumeric (`conversation/types.py`, `_validate_tags`). */
const TAG_KEY = /^[a-z0-9]+$/;
/** Most characters of a tag's value. */
export const MAX_TAG_VALUE = 256;

/** `ConversationTags`: keys lowercase alphanumeric, values up to 256 characters. */
export const ConversationTags = z
  .record(z.string(), z.string().check(z.maxLength(MAX_TAG_VALUE)))
  .check(z.refine((tags) => Object.keys(tags).every((key) => TAG_KEY.test(key)), 'Tag keys must be lowercase alphanumeric'));

/**
 * The error of a discriminated union (openhands-sdk `utils/models.py`,
 * `DiscriminatedUnionMixin._validate_subtype` and `resolve_kind`) for a `kind` naming none of its
 * classes: a `value_error` at the object, which pydantic reports with the object as sent.
 */
function unknownKind(base: string, kinds: readonly string[], kind: unknown) {
  const error = `Unknown kind '${pythonStr(kind ?? '')}' for ${base}; Expected one of: [${kinds.map((k) => `'${k}'`).join(', ')}]`;
  return { type: 'value_error', msg: `Value error, ${error}`, ctx: { error } };
}

/**
 * An `LLM` (openhands-sdk `llm/llm.py`): its model, which `_coerce_inputs` (a before-validator)
 * requires although the field declares a default, and its temperature (a float, at least 0, lax:
 * `"0.5"` is 0.5); its other options pass. Anything but an object is `model_type`.
 */
export const LlmSpec = modelField(
  'LLM',
  z.pipe(
    // biome-ignore lint/suspicious/noExplicitAny: the object's fields are declared by the schema after it
    z.transform<Record<string, unknown>, any>((llm, ctx) => {
      // Python's `not model`: absent, null, "", 0, false, [] and {} alike.
      const model = llm.model;
      const empty = model === undefined || model === null || model === '' || model === 0 || model === false;
      if (empty || (typeof model === 'object' && Object.keys(model).length === 0)) {
        const error = 'model must be specified in LLM';
        ctx.issues.push(pydanticIssue(llm, { type: 'value_error', msg: `Value error, ${error}`, ctx: { error } }));
        return z.NEVER;
      }
      return llm;
    }),
    z.looseObject({
      // The default the real field declares, never used: the check above refuses an llm without a model.
      model: z._default(z.string(), 'claude-sonnet-4-5-20250929'),
      temperature: z.optional(z.nullable(laxFloat(z.number().check(z.gte(0))))),
    }),
  ),
);

/** A `Tool` of an agent (openhands-sdk `tool/spec.py`): its name; its params pass. */
export const ToolSpec = modelField('Tool', z.looseObject({ name: z.string() }));

/** The classes an agent may be (`AgentBase`'s concrete subclasses), as the real error lists them. */
const AGENT_KINDS = ['ACPAgent', 'Agent'] as const;

/**
 * An agent (`Agent` or `ACPAgent`): its kind, its LLM and its tools; the rest of its config
 * passes. Checked first as the real server does: `StartConversationRequest._normalize_agent_source`
 * (openhands-sdk `conversation/request.py`) makes an agent with an `llm` and no `kind` an `Agent`;
 * any other kind but the two is `Unknown kind` (no kind is `''`); an `Agent` without an `llm` is
 * `missing`, reported (as pydantic does) with the dict `Agent._add_security_prompt_as_default`
 * rewrote: without its kind, `system_prompt_kwargs.llm_security_analyzer` set (`agent/agent.py`).
 * An agent that is no object is `model_attributes_type` (FastAPI validates the body with
 * `from_attributes=True`); its llm and tools are `model_type`, validated afresh by
 * `DiscriminatedUnionMixin._validate_subtype` (`subclass.model_validate`) without it.
 */
export const AgentSpec = z.pipe(
  // biome-ignore lint/suspicious/noExplicitAny: the object's fields are declared by the schema after it
  z.transform<unknown, any>((agent, ctx) => {
    if (!isJsonObject(agent)) return agent;
    const kind = 'kind' in agent ? agent.kind : 'llm' in agent ? 'Agent' : '';
    if (typeof kind !== 'string' || !(AGENT_KINDS as readonly string[]).includes(kind)) {
      ctx.issues.push(pydanticIssue(agent, unknownKind('openhands.sdk.agent.base.AgentBase', AGENT_KINDS, kind)));
      return z.NEVER;
    }
    if (kind === 'Agent' && !('llm' in agent)) {
      const { kind: _kind, ...rest } = agent;
      const given = rest.system_prompt_kwargs;
      const kwargs = isJsonObject(given) && Object.keys(given).length > 0 ? given : {};
      const setDefault = 'llm_security_analyzer' in kwargs ? kwargs : { ...kwargs, llm_security_analyzer: true };
      const input = { ...rest, system_prompt_kwargs: setDefault };
      ctx.issues.push(pydanticIssue(agent, { type: 'missing', msg: 'Field required', input }, ['llm']));
      return z.NEVER;
    }
    return agent;
  }),
  z.looseObject({
    kind: z._default(z.string(), 'Agent'),
    llm: z.optional(LlmSpec),
    tools: z.optional(z.array(ToolSpec)),
  }),
);

/** A `LocalWorkspace`: its working directory (the TypeScript client adds `type: "local"`). */
export const LocalWorkspaceSpec = z.looseObject({ working_dir: z.string() });

/** The confirmation policies (`ConfirmationPolicyBase`'s subclasses), as the real error lists them. */
const POLICY_KINDS = ['AlwaysConfirm', 'ConfirmRisky', 'NeverConfirm'] as const;

/**
 * A confirmation policy (`AlwaysConfirm`, `NeverConfirm`, `ConfirmRisky`): an unknown or absent
 * kind is `Unknown kind` (`utils/models.py`, `resolve_kind`); anything but an object is
 * `model_attributes_type`, as FastAPI's `from_attributes=True` validation words it.
 */
export const ConfirmationPolicySpec = z.pipe(
  // biome-ignore lint/suspicious/noExplicitAny: the object's fields are declared by the schema after it
  z.transform<unknown, any>((policy, ctx) => {
    if (!isJsonObject(policy) || (POLICY_KINDS as readonly unknown[]).includes(policy.kind)) return policy;
    ctx.issues.push(
      pydanticIssue(policy, unknownKind('openhands.sdk.security.confirmation_policy.ConfirmationPolicyBase', POLICY_KINDS, policy.kind)),
    );
    return z.NEVER;
  }),
  z.looseObject({ kind: z.enum(['AlwaysConfirm', 'NeverConfirm', 'ConfirmRisky']) }),
);

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
