/**
 * The events the agent server's socket sends, one schema per kind (openhands-sdk
 * `openhands/sdk/event/`), the actions and observations of the tools inside `ActionEvent` and
 * `ObservationEvent` (`openhands/tools/`), and the frames a client sends. Typed are the fields
 * the web apps read (Agent Canvas's type guards; OpenHands `frontend/src/types/v1/type-guards.ts`,
 * Nov 2025); the rest pass (loose objects). A kind of `EventKind` without its own schema here is
 * described by the common event fields. The AsyncAPI document (`surfaces/agent-server/asyncapi.ts`)
 * is generated from these.
 */
import * as z from 'zod/mini';
import { AgentEvent, EventKind, SocketMessage } from './agent-server.js';

const text = z.array(z.looseObject({ type: z.string(), text: z.string() }));
/** The fields every event has besides its kind. */
const base = { id: z.string(), timestamp: z.string(), source: AgentEvent.shape.source };
const event = <K extends string, S extends z.core.$ZodLooseShape>(kind: K, shape: S) =>
  z.looseObject({ kind: z.literal(kind), ...base, ...shape });

/** The tools' actions an `ActionEvent` carries, by kind (newest names; `domain/agent/dialect.ts` renames them for older servers). */
export const AgentActions = {
  TerminalAction: z.looseObject({ kind: z.literal('TerminalAction'), command: z.string(), is_input: z.boolean(), reset: z.boolean() }),
  FileEditorAction: z.looseObject({ kind: z.literal('FileEditorAction'), command: z.string(), path: z.string() }),
  ThinkAction: z.looseObject({ kind: z.literal('ThinkAction'), thought: z.string() }),
  FinishAction: z.looseObject({ kind: z.literal('FinishAction'), message: z.string() }),
  TaskTrackerAction: z.looseObject({ kind: z.literal('TaskTrackerAction'), command: z.string() }),
} as const;

/** The tools' observations an `ObservationEvent` carries, by kind. */
export const AgentObservations = {
  TerminalObservation: z.looseObject({
    kind: z.literal('TerminalObservation'),
    content: text,
    is_error: z.boolean(),
    command: z.string(),
    exit_code: z.nullable(z.int()),
    timeout: z.boolean(),
  }),
  FileEditorObservation: z.looseObject({
    kind: z.literal('FileEditorObservation'),
    content: text,
    is_error: z.boolean(),
    command: z.string(),
    path: z.nullable(z.string()),
  }),
  ThinkObservation: z.looseObject({ kind: z.literal('ThinkObservation'), content: text }),
  FinishObservation: z.looseObject({ kind: z.literal('FinishObservation'), content: text }),
  TaskTrackerObservation: z.looseObject({ kind: z.literal('TaskTrackerObservation'), content: text }),
} as const;

const anyOf = (schemas: Record<string, z.ZodMiniType>) =>
  z.union(Object.values(schemas) as [z.ZodMiniType, z.ZodMiniType, ...z.ZodMiniType[]]);

/** The events with a schema of their own, by kind: what the apps' type guards test. */
export const AgentEventSchemas: Readonly<Partial<Record<z.output<typeof EventKind>, z.ZodMiniType>>> = {
  ActionEvent: event('ActionEvent', {
    thought: text,
    action: anyOf(AgentActions),
    tool_name: z.string(),
    tool_call_id: z.string(),
    llm_response_id: z.string(),
  }),
  ObservationEvent: event('ObservationEvent', {
    observation: anyOf(AgentObservations),
    action_id: z.string(),
    tool_name: z.string(),
    tool_call_id: z.string(),
  }),
  MessageEvent: event('MessageEvent', {
    llm_message: z.looseObject({ role: z.enum(['user', 'system', 'assistant', 'tool']), content: text }),
  }),
  AgentErrorEvent: event('AgentErrorEvent', { tool_name: z.string(), tool_call_id: z.string(), error: z.string() }),
  ConversationErrorEvent: event('ConversationErrorEvent', { code: z.string(), detail: z.string() }),
  ServerErrorEvent: event('ServerErrorEvent', { code: z.string(), detail: z.string() }),
  ConversationStateUpdateEvent: event('ConversationStateUpdateEvent', { key: z.string(), value: z.unknown() }),
  UserRejectObservation: event('UserRejectObservation', {
    tool_name: z.string(),
    tool_call_id: z.string(),
    action_id: z.string(),
    rejection_reason: z.string(),
  }),
  PauseEvent: event('PauseEvent', {}),
  SystemPromptEvent: event('SystemPromptEvent', {
    system_prompt: z.looseObject({ type: z.string(), text: z.string() }),
    tools: z.array(z.unknown()),
  }),
};

/** The schema of events of `kind`: its own, or the common fields with that kind. */
export function agentEventSchema(kind: string): z.ZodMiniType {
  return (AgentEventSchemas as Record<string, z.ZodMiniType>)[kind] ?? event(kind, {});
}

/** Every event kind the socket can send (a kind added to `EventKind` is in it). */
export const socketEventKinds = (): readonly string[] => EventKind.options;

/** A client's `{"type": "auth"}` frame: the session key, when none came with the request (openhands-agent-server `sockets.py`, `_is_auth_control_message`). */
export const SocketAuthFrame = z.object({ type: z.literal('auth'), session_api_key: z.string() });

/** A client's message frame on the events socket. */
export const SocketMessageFrame = SocketMessage;

/** The bash socket's events, by kind (openhands-agent-server `models.py`: `BashCommand`, `BashOutput`; the fake's `BashError`). */
export const BashEventSchemas = {
  BashCommand: z.looseObject({ kind: z.literal('BashCommand'), id: z.string(), timestamp: z.string(), command: z.string() }),
  BashOutput: z.looseObject({
    kind: z.literal('BashOutput'),
    id: z.string(),
    timestamp: z.string(),
    command_id: z.string(),
    order: z.int(),
    exit_code: z.nullable(z.int()),
    stdout: z.nullable(z.string()),
    stderr: z.nullable(z.string()),
  }),
  BashError: z.looseObject({ kind: z.literal('BashError'), id: z.string(), timestamp: z.string(), code: z.string(), detail: z.string() }),
} as const;
