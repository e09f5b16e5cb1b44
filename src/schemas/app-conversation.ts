/**
 * App conversations (V1) and their start tasks, as the current real server declares them
 * (`AppConversation`, `AppConversationStartRequest`, `AppConversationStartTask`, ...).
 */
import * as z from 'zod/mini';
import { ConversationExecutionStatus, ConversationTrigger, DateTime, HexId, ProviderType, SandboxStatus, Uuid } from './common.js';
import { LaxBool, LaxInt } from './helpers.js';

/** Agent types a conversation can run. */
export const AgentType = z.enum(['default', 'plan']);

/** Start task status values, in the order a task steps through them. */
export const AppConversationStartTaskStatus = z.enum([
  'WORKING',
  'WAITING_FOR_SANDBOX',
  'PREPARING_REPOSITORY',
  'RUNNING_SETUP_SCRIPT',
  'SETTING_UP_GIT_HOOKS',
  'SETTING_UP_SKILLS',
  'STARTING_CONVERSATION',
  'READY',
  'ERROR',
]);
export type AppConversationStartTaskStatus = z.infer<typeof AppConversationStartTaskStatus>;

/** Text in a message. */
export const TextContent = z.object({
  cache_prompt: z._default(LaxBool, false),
  type: z._default(z.literal('text'), 'text'),
  text: z.string(),
});
/** Images in a message. */
export const ImageContent = z.object({
  cache_prompt: z._default(LaxBool, false),
  type: z._default(z.literal('image'), 'image'),
  image_urls: z.array(z.string()),
});
/** A piece of message content: text or images. */
export const MessageContent = z.union([TextContent, ImageContent]);

/** A message to the agent (`SendMessageRequest`): the first one of a conversation. */
export const SendMessageRequest = z.object({
  role: z._default(z.enum(['user', 'system', 'assistant', 'tool']), 'user'),
  content: z._default(z.array(MessageContent), []),
  run: z._default(LaxBool, false),
});
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

/** What a suggested task is about (V1 `TaskType`; the legacy one adds CREATE_MICROAGENT). */
export const AppTaskType = z.enum(['MERGE_CONFLICTS', 'FAILING_CHECKS', 'UNRESOLVED_COMMENTS', 'OPEN_ISSUE', 'OPEN_PR']);

/** A task suggested to the user, that a conversation can be started on (V1 `SuggestedTask`). */
export const AppSuggestedTask = z.object({
  git_provider: ProviderType,
  task_type: AppTaskType,
  repo: z.string(),
  issue_number: LaxInt,
  title: z.string(),
});

/** A plugin loaded into the conversation's agent. */
export const PluginSpec = z.object({
  source: z.string(),
  ref: z._default(z.nullable(z.string()), null),
  repo_path: z._default(z.nullable(z.string()), null),
  parameters: z._default(z.nullable(z.record(z.string(), z.unknown())), null),
});

/** A value of observability metadata. */
const TraceMetadataValue = z.union([
  z.string(),
  z.boolean(),
  z.int(),
  z.number(),
  z.array(z.string()),
  z.array(z.boolean()),
  z.array(z.int()),
  z.array(z.number()),
]);

const summary = { should_request_summary: z._default(LaxBool, true) };
/** What happens with a conversation's events: one of the real server's callback processors, by `kind`. */
export const EventCallbackProcessor = z.discriminatedUnion('kind', [
  z.object({
    bitbucket_view_data: z._default(z.record(z.string(), z.unknown()), {}),
    ...summary,
    kind: z.literal('BitbucketV1CallbackProcessor'),
  }),
  z.object({
    github_view_data: z._default(z.record(z.string(), z.unknown()), {}),
    ...summary,
    inline_pr_comment: z._default(LaxBool, false),
    kind: z.literal('GithubV1CallbackProcessor'),
  }),
  z.object({
    gitlab_view_data: z._default(z.record(z.string(), z.unknown()), {}),
    ...summary,
    inline_mr_comment: z._default(LaxBool, false),
    kind: z.literal('GitlabV1CallbackProcessor'),
  }),
  z.object({
    ...summary,
    svc_acc_email: z.string(),
    decrypted_api_key: z.string(),
    issue_key: z.string(),
    jira_cloud_id: z.string(),
    kind: z.literal('JiraV1CallbackProcessor'),
  }),
  z.object({
    ...summary,
    issue_key: z.string(),
    workspace_name: z.string(),
    base_api_url: z.string(),
    kind: z.literal('JiraDcV1CallbackProcessor'),
  }),
  z.object({ slack_view_data: z._default(z.record(z.string(), z.nullable(z.string())), {}), kind: z.literal('SlackV1CallbackProcessor') }),
  z.object({ kind: z.literal('LoggingCallbackProcessor') }),
  z.object({ kind: z.literal('SetTitleCallbackProcessor') }),
]);

/** Body of `POST /api/v1/app-conversations` (`AppConversationStartRequest`); every field optional. */
export const AppConversationStartRequest = z.object({
  sandbox_id: z._default(z.nullable(z.string()), null),
  conversation_id: z._default(z.nullable(Uuid), null),
  initial_message: z._default(z.nullable(SendMessageRequest), null),
  system_message_suffix: z._default(z.nullable(z.string()), null),
  processors: z._default(z.nullable(z.array(EventCallbackProcessor)), null),
  llm_model: z._default(z.nullable(z.string()), null),
  agent_profile_id: z._default(z.nullable(z.string()), null),
  selected_repository: z._default(z.nullable(z.string()), null),
  selected_branch: z._default(z.nullable(z.string()), null),
  git_provider: z._default(z.nullable(ProviderType), null),
  suggested_task: z._default(z.nullable(AppSuggestedTask), null),
  title: z._default(z.nullable(z.string()), null),
  trigger: z._default(z.nullable(ConversationTrigger), null),
  pr_number: z._default(z.array(LaxInt), []),
  parent_conversation_id: z._default(z.nullable(Uuid), null),
  agent_type: z._default(AgentType, 'default'),
  public: z._default(z.nullable(LaxBool), null),
  observability_metadata: z._default(z.nullable(z.record(z.string(), TraceMetadataValue)), null),
  observability_tags: z._default(z.nullable(z.array(z.string())), null),
  observability_span_name: z._default(z.nullable(z.string()), null),
  plugins: z._default(z.nullable(z.array(PluginSpec)), null),
  /** Secrets for the sandbox; write-only: echoed as `**********`, like pydantic's `SecretStr`. */
  secrets: z._default(z.nullable(z.record(z.string(), z.string())), null),
});
export type AppConversationStartRequest = z.infer<typeof AppConversationStartRequest>;

/** Token usage of a conversation's LLM calls. */
export const TokenUsage = z.object({
  model: z.string(),
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
  cache_read_tokens: z.int(),
  cache_write_tokens: z.int(),
  reasoning_tokens: z.int(),
  context_window: z.int(),
  per_turn_token: z.int(),
  response_id: z.string(),
});

/** What a conversation has used so far (`MetricsSnapshot`). */
export const MetricsSnapshot = z.object({
  model_name: z.string(),
  accumulated_cost: z.number(),
  max_budget_per_task: z.nullable(z.number()),
  accumulated_token_usage: z.nullable(TokenUsage),
});
export type MetricsSnapshot = z.infer<typeof MetricsSnapshot>;

/** The agent profile a conversation was launched with. */
export const LaunchedAgentProfile = z.object({ agent_profile_id: z.string(), revision: z.int() });

/** A conversation as the V1 endpoints report it, with its live fields (`AppConversation`). */
export const AppConversation = z.object({
  id: HexId,
  created_by_user_id: z.nullable(z.string()),
  sandbox_id: z.string(),
  selected_repository: z.nullable(z.string()),
  selected_branch: z.nullable(z.string()),
  git_provider: z.nullable(ProviderType),
  title: z.nullable(z.string()),
  trigger: z.nullable(ConversationTrigger),
  pr_number: z.array(z.int()),
  llm_model: z.nullable(z.string()),
  agent_kind: z.string(),
  metrics: z.nullable(MetricsSnapshot),
  parent_conversation_id: z.nullable(HexId),
  sub_conversation_ids: z.array(HexId),
  public: z.nullable(z.boolean()),
  tags: z.record(z.string(), z.string()),
  created_at: DateTime,
  updated_at: DateTime,
  sandbox_status: SandboxStatus,
  execution_status: z.nullable(ConversationExecutionStatus),
  conversation_url: z.nullable(z.string()),
  session_api_key: z.nullable(z.string()),
  acp_server: z.nullable(z.string()),
  launched_agent_profile: z.nullable(LaunchedAgentProfile),
});
export type AppConversation = z.infer<typeof AppConversation>;

/** The start request as a start task echoes it (ids as 32 hex digits, secrets masked). */
export const EchoedStartRequest = z.extend(AppConversationStartRequest, {
  conversation_id: z.nullable(HexId),
  parent_conversation_id: z.nullable(HexId),
});

/** The asynchronous start of a conversation, polled by clients (`AppConversationStartTask`). */
export const AppConversationStartTask = z.object({
  id: HexId,
  created_by_user_id: z.nullable(z.string()),
  status: AppConversationStartTaskStatus,
  detail: z.nullable(z.string()),
  app_conversation_id: z.nullable(HexId),
  sandbox_id: z.nullable(z.string()),
  agent_server_url: z.nullable(z.string()),
  request: EchoedStartRequest,
  created_at: DateTime,
  updated_at: DateTime,
});
export type AppConversationStartTask = z.infer<typeof AppConversationStartTask>;
