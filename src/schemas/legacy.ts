import { z } from 'zod';
import {
  ConversationStatus, ConversationTrigger, DateTime, ProviderType,
} from './common.js';
import { LaxInt, type PydanticErrorParams } from './helpers.js';
import { MCPConfig } from './mcp.js';

/** Suggested task types (`SuggestedTaskType`). */
export const TaskType = z.enum([
  'MERGE_CONFLICTS', 'FAILING_CHECKS', 'UNRESOLVED_COMMENTS', 'OPEN_ISSUE', 'OPEN_PR', 'CREATE_MICROAGENT',
]);

/** A task suggested to the user; every field is required. */
export const SuggestedTask = z.object({
  git_provider: ProviderType,
  task_type: TaskType,
  repo: z.string(),
  issue_number: LaxInt,
  title: z.string(),
});
export type SuggestedTask = z.infer<typeof SuggestedTask>;

/** A request to create a microagent in a repository. */
export const CreateMicroagent = z.object({
  repo: z.string(),
  git_provider: ProviderType.nullable().default(null),
  title: z.string().nullable().default(null),
});
export type CreateMicroagent = z.infer<typeof CreateMicroagent>;

/** Body of `POST /api/conversations` (`InitSessionRequest`): all optional, unknown fields rejected. */
export const InitSessionRequest = z.strictObject({
  repository: z.string().nullable().default(null),
  git_provider: ProviderType.nullable().default(null),
  selected_branch: z.string().nullable().default(null),
  initial_user_msg: z.string().nullable().default(null),
  image_urls: z.array(z.string()).nullable().default(null),
  replay_json: z.string().nullable().default(null),
  suggested_task: SuggestedTask.nullable().default(null),
  create_microagent: CreateMicroagent.nullable().default(null),
  conversation_instructions: z.string().nullable().default(null),
  mcp_config: MCPConfig.nullable().default(null),
  /** An empty id is no id, as the real route's `if request.conversation_id` reads it. */
  conversation_id: z.string().optional().transform((id) => (id === '' ? undefined : id)),
});
export type InitSessionRequest = z.infer<typeof InitSessionRequest>;

/** Answer of `POST /api/conversations`. */
export const ConversationResponse = z.object({
  status: z.string(),
  conversation_id: z.string(),
  message: z.string().nullable(),
  conversation_status: ConversationStatus.nullable(),
});
export type ConversationResponse = z.infer<typeof ConversationResponse>;

/** A stored git provider token. The token is a secret: it is stored, never returned. */
export const ProviderToken = z.object({
  token: z.string().nullable().default(null),
  host: z.string().nullable().default(null),
  user_id: z.string().nullable().default(null),
});
export type ProviderToken = z.infer<typeof ProviderToken>;

const PROVIDER_VALUES = ProviderType.options;
const ENUM_EXPECTED = `${PROVIDER_VALUES.slice(0, -1).map((v) => `'${v}'`).join(', ')} or '${PROVIDER_VALUES.at(-1)}'`;

/** Provider tokens keyed by `ProviderType`; a key that is not a provider is an `enum` error at `[key]`. */
export const ProviderTokens = z
  .record(z.string(), ProviderToken)
  .superRefine((tokens, ctx) => {
    for (const key of Object.keys(tokens)) {
      if (!(PROVIDER_VALUES as readonly string[]).includes(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [key, '[key]'],
          message: 'unknown provider',
          input: key,
          params: { pydantic: { type: 'enum', msg: `Input should be ${ENUM_EXPECTED}`, ctx: { expected: ENUM_EXPECTED } } } satisfies PydanticErrorParams,
        });
      }
    }
  })
  .transform((tokens) => tokens as Partial<Record<ProviderType, ProviderToken>>);

/** Body of `POST /api/add-git-providers` (`POSTProviderModel`). */
export const POSTProviderModel = z.object({
  mcp_config: MCPConfig.nullable().default(null),
  provider_tokens: ProviderTokens.default({}),
});
export type POSTProviderModel = z.infer<typeof POSTProviderModel>;

/** Answer of `POST /api/add-git-providers`. */
export const GitProvidersStored = z.object({ message: z.string() });

/** Legacy runtime status values the fake reports. */
export const RuntimeStatus = z.enum([
  'STATUS$STOPPED', 'STATUS$BUILDING_RUNTIME', 'STATUS$STARTING_RUNTIME', 'STATUS$RUNTIME_STARTED',
  'STATUS$SETTING_UP_WORKSPACE', 'STATUS$SETTING_UP_GIT_HOOKS', 'STATUS$READY', 'STATUS$ERROR',
  'STATUS$ERROR_RUNTIME_DISCONNECTED', 'STATUS$ERROR_LLM_AUTHENTICATION', 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE',
  'STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR', 'STATUS$ERROR_LLM_OUT_OF_CREDITS', 'STATUS$ERROR_LLM_CONTENT_POLICY_VIOLATION',
  'CHAT_INTERFACE$AGENT_RATE_LIMITED_STOPPED_MESSAGE', 'STATUS$GIT_PROVIDER_AUTHENTICATION_ERROR', 'STATUS$LLM_RETRY', 'STATUS$ERROR_MEMORY',
]);

/** A conversation as the legacy endpoints report it (`ConversationInfo`). */
export const ConversationInfo = z.object({
  conversation_id: z.string(),
  title: z.string(),
  last_updated_at: DateTime.nullable(),
  status: ConversationStatus,
  runtime_status: RuntimeStatus.nullable(),
  selected_repository: z.string().nullable(),
  selected_branch: z.string().nullable(),
  git_provider: ProviderType.nullable(),
  trigger: ConversationTrigger.nullable(),
  num_connections: z.int(),
  url: z.string().nullable(),
  session_api_key: z.string().nullable(),
  created_at: DateTime,
  pr_number: z.array(z.int()),
  conversation_version: z.enum(['V0', 'V1']),
  sub_conversation_ids: z.array(z.string()),
});
export type ConversationInfo = z.infer<typeof ConversationInfo>;

/** A page of the legacy conversation list: `{"results": [...], "next_page_id"}`. */
export const ConversationInfoResultSet = z.object({
  results: z.array(ConversationInfo),
  next_page_id: z.string().nullable(),
});

/** Body of `PATCH /api/conversations/{id}`. */
export const ConversationTitleUpdate = z.object({ title: z.string().min(1).max(200) });
