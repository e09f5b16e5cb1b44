import { z } from 'zod';
import {
  ConversationExecutionStatus, ConversationTrigger, DateTime, ProviderType, SandboxStatus, Uuid,
} from './common.js';
import { LaxBool, LaxInt } from './helpers.js';

/** Agent types a conversation can run. */
export const AgentType = z.enum(['default', 'plan']);

/** Start task status values, in the order a task steps through them. */
export const AppConversationStartTaskStatus = z.enum([
  'WORKING', 'WAITING_FOR_SANDBOX', 'PREPARING_REPOSITORY', 'RUNNING_SETUP_SCRIPT',
  'SETTING_UP_GIT_HOOKS', 'STARTING_CONVERSATION', 'READY', 'ERROR',
]);
export type AppConversationStartTaskStatus = z.infer<typeof AppConversationStartTaskStatus>;

/** A piece of message content. */
export const TextContent = z.object({ type: z.literal('text'), text: z.string() });

/** The first user message of a conversation. */
export const SendMessageRequest = z.object({
  role: z.enum(['user', 'system', 'assistant', 'tool']).default('user'),
  content: z.array(TextContent).default([]),
  run: LaxBool.default(true),
});

/** Body of `POST /api/v1/app-conversations` (`AppConversationStartRequest`); all optional. */
export const AppConversationStartRequest = z.object({
  sandbox_id: z.string().nullable().default(null),
  initial_message: SendMessageRequest.nullable().default(null),
  processors: z.array(z.record(z.string(), z.unknown())).nullable().default(null),
  llm_model: z.string().nullable().default(null),
  selected_repository: z.string().nullable().default(null),
  selected_branch: z.string().nullable().default(null),
  git_provider: ProviderType.nullable().default(null),
  title: z.string().nullable().default(null),
  trigger: ConversationTrigger.nullable().default(null),
  pr_number: z.array(LaxInt).default([]),
  parent_conversation_id: Uuid.nullable().default(null),
  agent_type: AgentType.default('default'),
});
export type AppConversationStartRequest = z.infer<typeof AppConversationStartRequest>;

/** A conversation as the V1 endpoints report it, with its live fields (`AppConversation`). */
export const AppConversation = z.object({
  id: z.uuid(),
  created_by_user_id: z.string().nullable(),
  sandbox_id: z.string(),
  selected_repository: z.string().nullable(),
  selected_branch: z.string().nullable(),
  git_provider: ProviderType.nullable(),
  title: z.string().nullable(),
  trigger: ConversationTrigger.nullable(),
  pr_number: z.array(z.int()),
  llm_model: z.string().nullable(),
  metrics: z.record(z.string(), z.unknown()).nullable(),
  parent_conversation_id: z.uuid().nullable(),
  sub_conversation_ids: z.array(z.uuid()),
  created_at: DateTime,
  updated_at: DateTime,
  sandbox_status: SandboxStatus,
  execution_status: ConversationExecutionStatus.nullable(),
  conversation_url: z.string().nullable(),
  session_api_key: z.string().nullable(),
});
export type AppConversation = z.infer<typeof AppConversation>;

/** The asynchronous start of a conversation, polled by clients (`AppConversationStartTask`). */
export const AppConversationStartTask = z.object({
  id: z.uuid(),
  created_by_user_id: z.string().nullable(),
  status: AppConversationStartTaskStatus,
  detail: z.string().nullable(),
  app_conversation_id: z.uuid().nullable(),
  sandbox_id: z.string().nullable(),
  agent_server_url: z.string().nullable(),
  request: AppConversationStartRequest,
  created_at: DateTime,
  updated_at: DateTime,
});
export type AppConversationStartTask = z.infer<typeof AppConversationStartTask>;
