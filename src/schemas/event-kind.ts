/**
 * The kinds of the agent server's events, alone in a module: the agent's vocabulary
 * (`domain/agent/vocabulary.ts`) checks its builders against this list, and a page loads that
 * vocabulary with its first chunks (the built-in run's length is read from its script), so the
 * list must not bring the event schemas of `agent-server.ts` and `sdk-events/` with it (issue 30).
 * `agent-server.ts` exports it too.
 */
import * as z from 'zod/mini';

/** The kinds of events (the discriminator of `Event`, as the app server's `kind__eq` filter lists them). */
export const EventKind = z.enum([
  'ACPToolCallEvent',
  'ActionEvent',
  'AgentErrorEvent',
  'Condensation',
  'CondensationRequest',
  'CondensationSummaryEvent',
  'ConversationErrorEvent',
  'ConversationStateUpdateEvent',
  'HookExecutionEvent',
  'InterruptEvent',
  'LLMCompletionLogEvent',
  'MessageEvent',
  'ObservationEvent',
  'PauseEvent',
  'ServerErrorEvent',
  'StreamingDeltaEvent',
  'SystemPromptEvent',
  'TokenEvent',
  'UserRejectObservation',
]);
