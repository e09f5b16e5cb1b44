import * as z from 'zod/mini';
import { ConversationStatus, ConversationTrigger, DateTime, ProviderType } from './common.js';
import { LaxInt, type PydanticErrorParams } from './helpers.js';
import { MCPConfig } from './mcp.js';

/** Suggested task types (`SuggestedTaskType`). */
export const TaskType = z.enum(['MERGE_CONFLICTS', 'FAILING_CHECKS', 'UNRESOLVED_COMMENTS', 'OPEN_ISSUE', 'OPEN_PR', 'CREATE_MICROAGENT']);

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
  git_provider: z._default(z.nullable(ProviderType), null),
  title: z._default(z.nullable(z.string()), null),
});
export type CreateMicroagent = z.infer<typeof CreateMicroagent>;

/** Body of `POST /api/conversations` (`InitSessionRequest`): all optional, unknown fields rejected. */
export const InitSessionRequest = z.strictObject({
  repository: z._default(z.nullable(z.string()), null),
  git_provider: z._default(z.nullable(ProviderType), null),
  selected_branch: z._default(z.nullable(z.string()), null),
  initial_user_msg: z._default(z.nullable(z.string()), null),
  image_urls: z._default(z.nullable(z.array(z.string())), null),
  replay_json: z._default(z.nullable(z.string()), null),
  suggested_task: z._default(z.nullable(SuggestedTask), null),
  create_microagent: z._default(z.nullable(CreateMicroagent), null),
  conversation_instructions: z._default(z.nullable(z.string()), null),
  mcp_config: z._default(z.nullable(MCPConfig), null),
  /** An empty id is no id, as the real route's `if request.conversation_id` reads it. */
  conversation_id: z.pipe(
    z.optional(z.string()),
    z.transform((id) => (id === '' ? undefined : id)),
  ),
});
export type InitSessionRequest = z.infer<typeof InitSessionRequest>;

/** Answer of `POST /api/conversations`. */
export const ConversationResponse = z.object({
  status: z.string(),
  conversation_id: z.string(),
  message: z.nullable(z.string()),
  conversation_status: z.nullable(ConversationStatus),
});
export type ConversationResponse = z.infer<typeof ConversationResponse>;

/** A stored git provider token. The token is a secret: it is stored, never returned. */
export const ProviderToken = z.object({
  token: z._default(z.nullable(z.string()), null),
  host: z._default(z.nullable(z.string()), null),
  user_id: z._default(z.nullable(z.string()), null),
});
export type ProviderToken = z.infer<typeof ProviderToken>;

const PROVIDER_VALUES = ProviderType.options;
const ENUM_EXPECTED = `${PROVIDER_VALUES.slice(0, -1)
  .map((v) => `'${v}'`)
  .join(', ')} or '${PROVIDER_VALUES.at(-1)}'`;

/** Provider tokens keyed by `ProviderType`; a key that is not a provider is an `enum` error at `[key]`. */
export const ProviderTokens = z.pipe(
  z.record(z.string(), ProviderToken).check(
    z.superRefine((tokens, ctx) => {
      for (const key of Object.keys(tokens)) {
        if (!(PROVIDER_VALUES as readonly string[]).includes(key)) {
          ctx.addIssue({
            code: 'custom',
            path: [key, '[key]'],
            message: 'unknown provider',
            input: key,
            params: {
              pydantic: { type: 'enum', msg: `Input should be ${ENUM_EXPECTED}`, ctx: { expected: ENUM_EXPECTED } },
            } satisfies PydanticErrorParams,
          });
        }
      }
    }),
  ),
  z.transform((tokens) => tokens as Partial<Record<ProviderType, ProviderToken>>),
);

/** Body of `POST /api/add-git-providers` (`POSTProviderModel`). */
export const POSTProviderModel = z.object({
  mcp_config: z._default(z.nullable(MCPConfig), null),
  provider_tokens: z._default(ProviderTokens, {}),
});
export type POSTProviderModel = z.infer<typeof POSTProviderModel>;

/** Answer of `POST /api/add-git-providers`. */
export const GitProvidersStored = z.object({ message: z.string() });

/** Legacy runtime status values the fake reports. */
export const RuntimeStatus = z.enum([
  'STATUS$STOPPED',
  'STATUS$BUILDING_RUNTIME',
  'STATUS$STARTING_RUNTIME',
  'STATUS$RUNTIME_STARTED',
  'STATUS$SETTING_UP_WORKSPACE',
  'STATUS$SETTING_UP_GIT_HOOKS',
  'STATUS$READY',
  'STATUS$ERROR',
  'STATUS$ERROR_RUNTIME_DISCONNECTED',
  'STATUS$ERROR_LLM_AUTHENTICATION',
  'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE',
  'STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR',
  'STATUS$ERROR_LLM_OUT_OF_CREDITS',
  'STATUS$ERROR_LLM_CONTENT_POLICY_VIOLATION',
  'CHAT_INTERFACE$AGENT_RATE_LIMITED_STOPPED_MESSAGE',
  'STATUS$GIT_PROVIDER_AUTHENTICATION_ERROR',
  'STATUS$LLM_RETRY',
  'STATUS$ERROR_MEMORY',
]);

/** A conversation as the legacy endpoints report it (`ConversationInfo`). */
export const ConversationInfo = z.object({
  conversation_id: z.string(),
  title: z.string(),
  last_updated_at: z.nullable(DateTime),
  status: ConversationStatus,
  runtime_status: z.nullable(RuntimeStatus),
  selected_repository: z.nullable(z.string()),
  selected_branch: z.nullable(z.string()),
  git_provider: z.nullable(ProviderType),
  trigger: z.nullable(ConversationTrigger),
  num_connections: z.int(),
  url: z.nullable(z.string()),
  session_api_key: z.nullable(z.string()),
  created_at: DateTime,
  pr_number: z.array(z.int()),
  conversation_version: z.enum(['V0', 'V1']),
  sub_conversation_ids: z.array(z.string()),
});
export type ConversationInfo = z.infer<typeof ConversationInfo>;

/** A page of the legacy conversation list: `{"results": [...], "next_page_id"}`. */
export const ConversationInfoResultSet = z.object({
  results: z.array(ConversationInfo),
  next_page_id: z.nullable(z.string()),
});

/** Body of `PATCH /api/conversations/{id}`. */
export const ConversationTitleUpdate = z.object({ title: z.string().check(z.minLength(1), z.maxLength(200)) });
