/**
 * The kinds of the agent server's events, alone in a module: the agent's vocabulary
 * (`domain/agent/vocabulary.ts`) checks its builders against this list, and a page loads that
 * vocabulary with its first chunks (the built-in run's length is read from its script), so the
 * list must not bring the event schemas of `agent-server.ts` and `sdk-events/` with it (issue 30).
 * `agent-server.ts` exports it too. The kinds are the event schemas' (`sdk-events/event-union.ts`,
 * `EVENT_SCHEMAS`): the compiler holds this list to theirs, both ways, through a type-only import
 * that brings no schema into a page.
 */
import * as z from 'zod/mini';
import type { EventSchemaKind } from './sdk-events/event-union.js';

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

/** Whether two unions are the same, both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// The kinds above are the event schemas' kinds, no more and no fewer: fails to compile otherwise.
void (true satisfies Same<z.output<typeof EventKind>, EventSchemaKind>);
