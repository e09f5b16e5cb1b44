/**
 * The agent server's routes that ask one conversation's agent something: pause, interrupt, run;
 * goal; secrets, security analyzer, LLM, profile and ACP model; ask, condense, a child, fork, navigate,
 * title. Each route names the real function it copies (openhands-agent-server
 * `conversation_router.py`; `generate_title` from the published v1.11.4 document). Part of
 * `conversation-routes.ts`'s table, in its order.
 */
import { resumeGoal, startGoal, stopGoal } from '../../domain/agent/goal.js';
import * as z from 'zod/mini';
import {
  interruptHostConversation,
  pauseHostConversation,
  runHostConversation,
  setSecurityAnalyzer,
  switchAcpModel,
  switchLlm,
  switchProfile,
  updateSecrets,
} from '../../domain/agent/conversations.js';
import { askAgent, condense, forkConversation, generateTitle, navigateConversation } from '../../domain/agent/history.js';
import { refuse } from '../../domain/store/refusal.js';
import { loadPlugin } from '../../domain/agent/plugins.js';
import { startChildConversation } from '../../domain/agent/children.js';
import {
  AgentTextResponse,
  AskAgentRequest,
  ForkConversationRequest,
  GenerateTitleRequest,
  GenerateTitleResponse,
  NavigateConversationRequest,
  SetSecurityAnalyzerRequest,
  StartGoalRequest,
  UpdateSecretsRequest,
} from '../../schemas/agent-conversations.js';
import { AgentConversationInfo, AgentSuccess } from '../../schemas/agent-server.js';
import { Uuid } from '../../schemas/common.js';
import { LaxBool } from '../../schemas/helpers.js';
import { defineRoute, type Route } from '../../http/route.js';
import { onHeldConversation } from './host.js';
import { DEFAULT_USAGE_ID } from '../../domain/agent/vocabulary-stats.js';

const BASE = '/api/conversations/:conversation_id';
const ConversationParam = z.object({ conversation_id: Uuid });
/** `include_skills` (every route answering a `ConversationInfo` takes it; the fake's conversations have no skills to trim). */
const IncludeSkills = z.object({ include_skills: z._default(LaxBool, false) });
const SUCCESS = Object.freeze({ success: true as const });
/** The usage id of an LLM a client sends (`LLM.usage_id`, `default` unless given). */
const llmUsageId = (llm: Readonly<Record<string, unknown>>) =>
  typeof llm.usage_id === 'string' && llm.usage_id !== '' ? llm.usage_id : DEFAULT_USAGE_ID;

/** The routes that ask a conversation's agent something (spread into `conversationRoutes`, `conversation-routes.ts`). */
export const conversationAgentRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'POST',
    path: `${BASE}/pause`,
    summary: 'Pause an idle or running conversation (PauseEvent); 404 for one it does not hold (pause_conversation)',
    params: ConversationParam,
    response: AgentSuccess,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(input, context, async (state, conversation) => {
        await pauseHostConversation(state, conversation);
        return SUCCESS;
      }),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/interrupt`,
    summary: 'Cancel the run at once (InterruptEvent), else pause; 404 for one it does not hold (interrupt_conversation)',
    params: ConversationParam,
    response: AgentSuccess,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(input, context, async (state, conversation) => {
        await interruptHostConversation(state, conversation);
        return SUCCESS;
      }),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/run`,
    summary: 'Run the agent on what waits, or go on; 409 while it runs (run_conversation)',
    params: ConversationParam,
    response: AgentSuccess,
    errors: [404, 409],
    handle: (input, context) =>
      onHeldConversation(input, context, async (state, conversation) => (await runHostConversation(state, conversation)) ?? SUCCESS),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/goal`,
    summary: 'Pursue an objective in this conversation; 409 while it runs (start_goal_in_conversation)',
    params: ConversationParam,
    body: StartGoalRequest,
    response: AgentSuccess,
    errors: [400, 404, 409],
    handle: (input, context) =>
      onHeldConversation(
        input,
        context,
        async (state, conversation) => (await startGoal(state, conversation, input.body.objective, input.body.max_iterations)) ?? SUCCESS,
      ),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/goal/stop`,
    summary: 'Stop the goal loop (it is then interrupted); succeeds without one (stop_goal_in_conversation)',
    params: ConversationParam,
    response: AgentSuccess,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(input, context, async (state, conversation) => {
        await stopGoal(state, conversation);
        return SUCCESS;
      }),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/goal/resume`,
    summary: 'Resume the interrupted goal; 400 without one, 409 while it runs (resume_goal_in_conversation)',
    params: ConversationParam,
    response: AgentSuccess,
    errors: [400, 404, 409],
    handle: (input, context) =>
      onHeldConversation(input, context, async (state, conversation) => (await resumeGoal(state, conversation)) ?? SUCCESS),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/secrets`,
    summary: 'Add secrets to the conversation (names kept, values never) (update_conversation_secrets)',
    params: ConversationParam,
    body: UpdateSecretsRequest,
    response: AgentSuccess,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(input, context, async (state, conversation) => {
        await updateSecrets(state, conversation, input.body.secrets);
        return SUCCESS;
      }),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/security_analyzer`,
    summary: 'Set or remove the security analyzer (set_conversation_security_analyzer)',
    params: ConversationParam,
    body: SetSecurityAnalyzerRequest,
    response: AgentSuccess,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(input, context, async (state, conversation) => {
        await setSecurityAnalyzer(state, conversation, input.body.security_analyzer);
        return SUCCESS;
      }),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/switch_profile`,
    summary: 'Use a named LLM profile; 404 for an unknown one (switch_conversation_profile)',
    params: ConversationParam,
    body: z.object({ profile_name: z.string() }),
    response: AgentSuccess,
    errors: [400, 404],
    handle: (input, context) =>
      onHeldConversation(
        input,
        context,
        async (state, conversation) => (await switchProfile(state, conversation, input.body.profile_name)) ?? SUCCESS,
      ),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/switch_llm`,
    summary: 'Use the LLM given (switch_conversation_llm)',
    params: ConversationParam,
    body: z.object({
      llm: z.looseObject({ model: z._default(z.string(), 'claude-sonnet-4-20250514'), stream: z._default(z.boolean(), false) }),
    }),
    response: AgentSuccess,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(input, context, async (state, conversation) => {
        await switchLlm(state, conversation, input.body.llm.model, input.body.llm.stream, llmUsageId(input.body.llm));
        return SUCCESS;
      }),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/switch_acp_model`,
    summary: "Switch an ACP conversation's model; 400 for another agent (switch_conversation_acp_model)",
    params: ConversationParam,
    body: z.object({ model: z.string() }),
    response: AgentSuccess,
    errors: [400, 404],
    handle: (input, context) =>
      onHeldConversation(
        input,
        context,
        async (state, conversation) => (await switchAcpModel(state, conversation, input.body.model)) ?? SUCCESS,
      ),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/ask_agent`,
    summary: 'A question answered without changing the conversation; 500 for one it does not hold (ask_agent)',
    params: ConversationParam,
    body: AskAgentRequest,
    response: AgentTextResponse,
    errors: [500],
    handle: (input, context) =>
      onHeldConversation(
        input,
        context,
        async (state, conversation) => ({ response: await askAgent(state, conversation, input.body.question) }),
        () => refuse('internal', 'Internal Server Error'),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/condense`,
    summary:
      'Condense the history (a Condensation event); 409 for an agent without a condenser that condenses on request (condense_conversation)',
    params: ConversationParam,
    response: AgentSuccess,
    errors: [404, 409],
    handle: (input, context) =>
      onHeldConversation(
        input,
        context,
        async (state, conversation) => (await condense(state, conversation)) ?? SUCCESS,
        () => refuse('not_found', 'Conversation not found'),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/children`,
    summary: "Start a child conversation on the parent's agent and workspace, its task its first message (start_child_conversation)",
    params: ConversationParam,
    body: z.object({
      task: z.string().check(z.minLength(1)),
      title: z.optional(z.nullable(z.string())),
      isolation: z._default(z.enum(['worktree', 'shared']), 'worktree'),
    }),
    response: z.object({
      conversation_id: z.string(),
      parent_conversation_id: z.string(),
      status: z.string(),
      title: z.nullable(z.string()),
      url: z.nullable(z.string()),
      workspace: z.nullable(z.string()),
      isolation: z.nullable(z.enum(['worktree', 'shared'])),
    }),
    successStatus: 201,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(
        input,
        context,
        (state, parent, host) => startChildConversation(state, host, parent, input.body),
        () => refuse('not_found', 'Parent conversation not found'),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/fork`,
    summary: 'Fork: a new idle conversation with a copy of the history (fork_conversation)',
    params: ConversationParam,
    query: IncludeSkills,
    body: ForkConversationRequest,
    bodyOptional: true,
    response: AgentConversationInfo,
    successStatus: 201,
    errors: [404, 409],
    handle: (input, context) =>
      onHeldConversation(
        input,
        context,
        (state, conversation) => forkConversation(state, conversation, input.body ?? { reset_metrics: true }),
        () => refuse('not_found', 'Source conversation not found'),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/navigate`,
    summary: 'Move HEAD to an event of the conversation (navigate_conversation)',
    params: ConversationParam,
    query: IncludeSkills,
    body: NavigateConversationRequest,
    bodyOptional: true,
    response: AgentConversationInfo,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(
        input,
        context,
        (state, conversation) => navigateConversation(state, conversation, input.body?.event_id ?? null),
        () => refuse('not_found', 'Conversation not found'),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/load_plugin`,
    summary: "Load a plugin from the conversation's registered marketplaces (load_conversation_plugin)",
    params: ConversationParam,
    body: z.object({ plugin_ref: z.string() }),
    response: AgentSuccess,
    errors: [400, 404],
    handle: (input, context) =>
      onHeldConversation(input, context, (_state, conversation) => loadPlugin(conversation, input.body.plugin_ref) ?? SUCCESS),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/generate_title`,
    summary: 'A title from the first message, kept (generate_conversation_title, v1.11.4)',
    params: ConversationParam,
    body: GenerateTitleRequest,
    bodyOptional: true,
    response: GenerateTitleResponse,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(input, context, async (state, conversation) => ({
        title: await generateTitle(state, conversation, input.body?.max_length ?? 50),
      })),
  }),
]);
