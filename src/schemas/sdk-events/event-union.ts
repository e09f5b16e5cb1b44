/** The agent server's event schemas, in `../sdk-events.ts`'s order: TaskTrackerTool to Event. */
import * as z from 'zod/mini';
import {
  ACPToolCallEvent,
  Condensation,
  CondensationRequest,
  CondensationSummaryEvent,
  ConversationErrorEvent,
  ConversationStateUpdateEvent,
  HookExecutionEvent,
  LLMCompletionLogEvent,
  ServerErrorEvent,
  TextContent,
} from './events.js';
import { ActionEvent, AgentErrorEvent, MessageEvent } from './actions.js';
import {
  FinishTool,
  InvokeSkillTool,
  MCPToolDefinition,
  ObservationEvent,
  SwitchLLMTool,
  ToolAnnotations,
  UserRejectObservation,
} from './observations.js';
import {
  ApplyPatchTool,
  BrowserClickTool,
  BrowserCloseTabTool,
  BrowserGetContentTool,
  BrowserGetStateTool,
  BrowserGetStorageTool,
  BrowserGoBackTool,
  BrowserListTabsTool,
  BrowserNavigateTool,
  BrowserScrollTool,
  BrowserSetStorageTool,
  BrowserStartRecordingTool,
  BrowserStopRecordingTool,
  BrowserSwitchTabTool,
  BrowserToolSet,
  BrowserTypeTool,
  ClientTool,
  EditTool,
  FileEditorTool,
  GlobTool,
  GrepTool,
  ListDirectoryTool,
  PlanningFileEditorTool,
  ReadFileTool,
  TaskTool,
  TaskToolSet,
  ThinkTool,
  VisionInspectTool,
  WriteFileTool,
} from './tools.js';

/** `TaskTrackerTool`. */
export const TaskTrackerTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('TaskTrackerTool'),
  title: z.string(),
});

/** `TerminalTool`. */
export const TerminalTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('TerminalTool'),
  title: z.string(),
});

/** `SleeptimeComputeTool`. */
export const SleeptimeComputeTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('SleeptimeComputeTool'),
  title: z.string(),
});

/** `TomConsultTool`. */
export const TomConsultTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('TomConsultTool'),
  title: z.string(),
});

/** `WorkflowTool`. */
export const WorkflowTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('WorkflowTool'),
  title: z.string(),
});

/** `WorkflowToolSet`. */
export const WorkflowToolSet = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('WorkflowToolSet'),
  title: z.string(),
});

/** Every tool definition, by kind. */
export const TOOL_SCHEMAS = {
  MCPToolDefinition,
  FinishTool,
  InvokeSkillTool,
  SwitchLLMTool,
  ThinkTool,
  VisionInspectTool,
  ClientTool,
  ApplyPatchTool,
  BrowserClickTool,
  BrowserCloseTabTool,
  BrowserGetContentTool,
  BrowserGetStateTool,
  BrowserGetStorageTool,
  BrowserGoBackTool,
  BrowserListTabsTool,
  BrowserNavigateTool,
  BrowserScrollTool,
  BrowserSetStorageTool,
  BrowserStartRecordingTool,
  BrowserStopRecordingTool,
  BrowserSwitchTabTool,
  BrowserToolSet,
  BrowserTypeTool,
  FileEditorTool,
  EditTool,
  ListDirectoryTool,
  ReadFileTool,
  WriteFileTool,
  GlobTool,
  GrepTool,
  PlanningFileEditorTool,
  TaskTool,
  TaskToolSet,
  TaskTrackerTool,
  TerminalTool,
  SleeptimeComputeTool,
  TomConsultTool,
  WorkflowTool,
  WorkflowToolSet,
} as const;

/** `ToolDefinition`: every tool definition, told apart by `kind`. */
export const ToolDefinition = z.discriminatedUnion('kind', [
  MCPToolDefinition,
  FinishTool,
  InvokeSkillTool,
  SwitchLLMTool,
  ThinkTool,
  VisionInspectTool,
  ClientTool,
  ApplyPatchTool,
  BrowserClickTool,
  BrowserCloseTabTool,
  BrowserGetContentTool,
  BrowserGetStateTool,
  BrowserGetStorageTool,
  BrowserGoBackTool,
  BrowserListTabsTool,
  BrowserNavigateTool,
  BrowserScrollTool,
  BrowserSetStorageTool,
  BrowserStartRecordingTool,
  BrowserStopRecordingTool,
  BrowserSwitchTabTool,
  BrowserToolSet,
  BrowserTypeTool,
  FileEditorTool,
  EditTool,
  ListDirectoryTool,
  ReadFileTool,
  WriteFileTool,
  GlobTool,
  GrepTool,
  PlanningFileEditorTool,
  TaskTool,
  TaskToolSet,
  TaskTrackerTool,
  TerminalTool,
  SleeptimeComputeTool,
  TomConsultTool,
  WorkflowTool,
  WorkflowToolSet,
]);

/** `SystemPromptEvent`. */
export const SystemPromptEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  system_prompt: TextContent,
  tools: z.array(ToolDefinition),
  dynamic_context: z.optional(z.nullable(TextContent)),
  kind: z.literal('SystemPromptEvent'),
});

/** `StreamingDeltaEvent`. */
export const StreamingDeltaEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  content: z.optional(z.nullable(z.string())),
  reasoning_content: z.optional(z.nullable(z.string())),
  kind: z.literal('StreamingDeltaEvent'),
});

/** `TokenEvent`. */
export const TokenEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  prompt_token_ids: z.array(z.int()),
  response_token_ids: z.array(z.int()),
  kind: z.literal('TokenEvent'),
});

/** `InterruptEvent`. */
export const InterruptEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  kind: z.literal('InterruptEvent'),
});

/** `PauseEvent`. */
export const PauseEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  kind: z.literal('PauseEvent'),
});

/**
 * The event schemas, one per kind: the one list of the agent server's event kinds. `Event`, the
 * schemas by kind, `EventKind` (`../event-kind.ts`, checked against this list by the compiler) and
 * the vocabulary's kinds (`domain/agent/vocabulary.ts`, checked too) follow it.
 */
export const EVENT_SCHEMAS = [
  ServerErrorEvent,
  ACPToolCallEvent,
  Condensation,
  CondensationRequest,
  CondensationSummaryEvent,
  ConversationErrorEvent,
  ConversationStateUpdateEvent,
  HookExecutionEvent,
  LLMCompletionLogEvent,
  ActionEvent,
  MessageEvent,
  AgentErrorEvent,
  ObservationEvent,
  UserRejectObservation,
  SystemPromptEvent,
  StreamingDeltaEvent,
  TokenEvent,
  InterruptEvent,
  PauseEvent,
] as const;

/** One event schema. */
type EventSchema = (typeof EVENT_SCHEMAS)[number];

/** The name of an event kind, as the schemas spell it. */
export type EventSchemaKind = z.output<EventSchema>['kind'];

/** Every event kind's schema, by kind (from `EVENT_SCHEMAS`). */
export const EVENT_KINDS_SCHEMAS = Object.freeze(
  Object.fromEntries(EVENT_SCHEMAS.map((schema) => [schema.shape.kind.def.values[0], schema])),
) as { readonly [S in EventSchema as z.output<S>['kind']]: S };

/** `Event`: every event kind, told apart by `kind`. */
export const Event = z.discriminatedUnion('kind', EVENT_SCHEMAS);
