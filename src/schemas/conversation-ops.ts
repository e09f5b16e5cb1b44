/**
 * What the operations on one app conversation and a sandbox's settings take and answer
 * (`AppConversationUpdateRequest`, `AppSendMessageRequest`, the git, skills and hooks answers of
 * the agent server the real app server proxies, `SecretNamesResponse`).
 */
import * as z from 'zod/mini';
import { ProviderType, SandboxStatus } from './common.js';
import { LaxBool } from './helpers.js';
import { MessageContent } from './app-conversation.js';

/** `PATCH /api/v1/app-conversations/{id}`: what may change; every field optional. */
export const AppConversationUpdateRequest = z.object({
  title: z.optional(z.nullable(z.string())),
  public: z.optional(z.nullable(LaxBool)),
  selected_repository: z.optional(z.nullable(z.string())),
  selected_branch: z.optional(z.nullable(z.string())),
  git_provider: z.optional(z.nullable(ProviderType)),
});
export type AppConversationUpdateRequest = z.infer<typeof AppConversationUpdateRequest>;

/** `POST /api/v1/app-conversations/{id}/send-message`. */
export const AppSendMessageRequest = z.object({
  role: z._default(z.literal('user'), 'user'),
  content: z.array(MessageContent).check(z.minLength(1)),
  run: z._default(LaxBool, true),
});
export type AppSendMessageRequest = z.infer<typeof AppSendMessageRequest>;

/** The answer of send-message. */
export const AppSendMessageResponse = z.object({ success: z.boolean(), sandbox_status: SandboxStatus, message: z.nullable(z.string()) });

/** `POST /api/v1/app-conversations/{id}/switch_profile`. */
export const SwitchProfileRequest = z.object({ profile_name: z.string().check(z.minLength(1)) });
/** `POST /api/v1/app-conversations/{id}/switch_acp_model`. */
export const SwitchAcpModelRequest = z.object({ model: z.string().check(z.minLength(1)) });

/** How a file changed, as the agent server's git service says it. */
export const GitChangeStatus = z.enum(['MOVED', 'ADDED', 'DELETED', 'UPDATED']);
/** One changed file of a workspace (`GET .../git/changes`). */
export const GitChange = z.object({ status: GitChangeStatus, path: z.string() });
export type GitChange = z.infer<typeof GitChange>;
/** A file before and after the agent's changes (`GET .../git/diff`). */
export const GitChangeDiff = z.object({ modified: z.string(), original: z.string() });
export type GitChangeDiff = z.infer<typeof GitChangeDiff>;

/** A skill loaded for a conversation. */
export const SkillResponse = z.object({
  name: z.string(),
  type: z.enum(['repo', 'knowledge', 'agentskills']),
  content: z.string(),
  triggers: z.array(z.string()),
});
/** `GET .../skills`. */
export const SkillsResponse = z.object({ skills: z.array(SkillResponse) });

/** One hook command. */
export const HookDefinitionResponse = z.object({ type: z.string(), command: z.string(), timeout: z.nullable(z.int()), async: z.boolean() });
/** `GET .../hooks`: the workspace's hooks by event type. */
export const HooksResponse = z.object({
  hooks: z.array(
    z.object({
      event_type: z.string(),
      matchers: z.array(z.object({ matcher: z.string(), hooks: z.array(HookDefinitionResponse) })),
    }),
  ),
});

/** The agent-server context's own error body: `{"error": "..."}`. */
export const AgentServerError = z.object({ error: z.string() });

/** `GET /api/v1/sandboxes/{id}/settings/secrets`: names only, never values. */
export const SecretNamesResponse = z.object({
  secrets: z.array(z.object({ name: z.string(), description: z.nullable(z.string()) })),
});
export type SecretNamesResponse = z.infer<typeof SecretNamesResponse>;
