/**
 * App conversations (V1) and their start tasks, as the current real server declares them
 * (`AppConversation`, `AppConversationStartRequest`, `AppConversationStartTask`, ...).
 */
import { z } from 'zod';
import {
  ConversationExecutionStatus, ConversationTrigger, DateTime, HexId, ProviderType, SandboxStatus, Uuid,
} from './common.js';
import { LaxBool, LaxInt } from './helpers.js';

/** Agent types a conversation can run. */
export const AgentType = z.enum(['default', 'plan']);

/** Start task status values, in the order a task steps through them. */
export const AppConversationStartTaskStatus = z.enum([
  'WORKING', 'WAITING_FOR_SANDBOX', 'PREPARING_REPOSITORY', 'RUNNING_SETUP_SCRIPT',
  'SETTING_UP_GIT_HOOKS', 'SETTING_UP_SKILLS', 'STARTING_CONVERSATION', 'READY', 'ERROR',
]);
export type AppConversationStartTaskStatus = z.infer<typeof AppConversationStartTaskStatus>;

/** Text in a message. */
export const TextContent = z.object({
  cache_prompt: LaxBool.default(false),
  type: z.literal('text').default('text'),
  text: z.string(),
});
/** Images in a message. */
export const ImageContent = z.object({
  cache_prompt: LaxBool.default(false),
  type: z.literal('image').default('image'),
  image_urls: z.array(z.string()),
});
/** A piece of message content: text or images. */
export const MessageContent = z.union([TextContent, ImageContent]);

/** A message to the agent (`SendMessageRequest`): the first one of a conversation. */
export const SendMessageRequest = z.object({
  role: z.enum(['user', 'system', 'assistant', 'tool']).default('user'),
  content: z.array(MessageContent).default([]),
  run: LaxBool.default(false),
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
  ref: z.string().nullable().default(null),
  repo_path: z.string().nullable().default(null),
  parameters: z.record(z.string(), z.unknown()).nullable().default(null),
});

/** A value of observability metadata. */
const TraceMetadataValue = z.union([
  z.string(), z.boolean(), z.int(), z.number(), z.array(z.string()), z.array(z.boolean()), z.array(z.int()), z.array(z.number()),
]);

const summary = { should_request_summary: LaxBool.default(true) };
/** What happens with a conversation's events: one of the real server's callback processors, by `kind`. */
export const EventCallbackProcessor = z.discriminatedUnion('kind', [
  z.object({ bitbucket_view_data: z.record(z.string(), z.unknown()).default({}), ...summary, kind: z.literal('BitbucketV1CallbackProcessor') }),
  z.object({ github_view_data: z.record(z.string(), z.unknown()).default({}), ...summary, inline_pr_comment: LaxBool.default(false), kind: z.literal('GithubV1CallbackProcessor') }),
  z.object({ gitlab_view_data: z.record(z.string(), z.unknown()).default({}), ...summary, inline_mr_comment: LaxBool.default(false), kind: z.literal('GitlabV1CallbackProcessor') }),
  z.object({ ...summary, svc_acc_email: z.string(), decrypted_api_key: z.string(), issue_key: z.string(), jira_cloud_id: z.string(), kind: z.literal('JiraV1CallbackProcessor') }),
  z.object({ ...summary, issue_key: z.string(), workspace_name: z.string(), base_api_url: z.string(), kind: z.literal('JiraDcV1CallbackProcessor') }),
  z.object({ slack_view_data: z.record(z.string(), z.string().nullable()).default({}), kind: z.literal('SlackV1CallbackProcessor') }),
  z.object({ kind: z.literal('LoggingCallbackProcessor') }),
  z.object({ kind: z.literal('SetTitleCallbackProcessor') }),
]);

/** Body of `POST /api/v1/app-conversations` (`AppConversationStartRequest`); every field optional. */
export const AppConversationStartRequest = z.object({
  sandbox_id: z.string().nullable().default(null),
  conversation_id: Uuid.nullable().default(null),
  initial_message: SendMessageRequest.nullable().default(null),
  system_message_suffix: z.string().nullable().default(null),
  processors: z.array(EventCallbackProcessor).nullable().default(null),
  llm_model: z.string().nullable().default(null),
  agent_profile_id: z.string().nullable().default(null),
  selected_repository: z.string().nullable().default(null),
  selected_branch: z.string().nullable().default(null),
  git_provider: ProviderType.nullable().default(null),
  suggested_task: AppSuggestedTask.nullable().default(null),
  title: z.string().nullable().default(null),
  trigger: ConversationTrigger.nullable().default(null),
  pr_number: z.array(LaxInt).default([]),
  parent_conversation_id: Uuid.nullable().default(null),
  agent_type: AgentType.default('default'),
  public: LaxBool.nullable().default(null),
  observability_metadata: z.record(z.string(), TraceMetadataValue).nullable().default(null),
  observability_tags: z.array(z.string()).nullable().default(null),
  observability_span_name: z.string().nullable().default(null),
  plugins: z.array(PluginSpec).nullable().default(null),
  /** Secrets for the sandbox; write-only: echoed as `**********`, like pydantic's `SecretStr`. */
  secrets: z.record(z.string(), z.string()).nullable().default(null),
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
  max_budget_per_task: z.number().nullable(),
  accumulated_token_usage: TokenUsage.nullable(),
});
export type MetricsSnapshot = z.infer<typeof MetricsSnapshot>;

/** The agent profile a conversation was launched with. */
export const LaunchedAgentProfile = z.object({ agent_profile_id: z.string(), revision: z.int() });

/** A conversation as the V1 endpoints report it, with its live fields (`AppConversation`). */
export const AppConversation = z.object({
  id: HexId,
  created_by_user_id: z.string().nullable(),
  sandbox_id: z.string(),
  selected_repository: z.string().nullable(),
  selected_branch: z.string().nullable(),
  git_provider: ProviderType.nullable(),
  title: z.string().nullable(),
  trigger: ConversationTrigger.nullable(),
  pr_number: z.array(z.int()),
  llm_model: z.string().nullable(),
  agent_kind: z.string(),
  metrics: MetricsSnapshot.nullable(),
  parent_conversation_id: HexId.nullable(),
  sub_conversation_ids: z.array(HexId),
  public: z.boolean().nullable(),
  tags: z.record(z.string(), z.string()),
  created_at: DateTime,
  updated_at: DateTime,
  sandbox_status: SandboxStatus,
  execution_status: ConversationExecutionStatus.nullable(),
  conversation_url: z.string().nullable(),
  session_api_key: z.string().nullable(),
  acp_server: z.string().nullable(),
  launched_agent_profile: LaunchedAgentProfile.nullable(),
});
export type AppConversation = z.infer<typeof AppConversation>;

/** The start request as a start task echoes it (ids as 32 hex digits, secrets masked). */
export const EchoedStartRequest = AppConversationStartRequest.extend({
  conversation_id: HexId.nullable(),
  parent_conversation_id: HexId.nullable(),
});

/** The asynchronous start of a conversation, polled by clients (`AppConversationStartTask`). */
export const AppConversationStartTask = z.object({
  id: HexId,
  created_by_user_id: z.string().nullable(),
  status: AppConversationStartTaskStatus,
  detail: z.string().nullable(),
  app_conversation_id: HexId.nullable(),
  sandbox_id: z.string().nullable(),
  agent_server_url: z.string().nullable(),
  request: EchoedStartRequest,
  created_at: DateTime,
  updated_at: DateTime,
});
export type AppConversationStartTask = z.infer<typeof AppConversationStartTask>;
