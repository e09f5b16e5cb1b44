/** The agent server's event schemas, in `../sdk-events.ts`'s order: FileEntry to SwitchLLMTool. */
import * as z from 'zod/mini';
import { TaskItem, TextContent } from './events.js';
import {
  ApplyPatchObservation,
  BrowserObservation,
  ClientToolObservation,
  DelegateObservation,
  EditObservation,
  FileEditorObservation,
  FinishObservation,
  ImageContent,
  InvokeSkillObservation,
  MCPToolObservation,
  SwitchLLMObservation,
  ThinkObservation,
  VisionInspectObservation,
} from './actions.js';

/** `FileEntry`. */
export const FileEntry = z.looseObject({
  name: z.string(),
  path: z.string(),
  is_directory: z.boolean(),
  size: z.int(),
  modified_time: z.string(),
});

/** `ListDirectoryObservation`. */
export const ListDirectoryObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  dir_path: z.optional(z.nullable(z.string())),
  entries: z.optional(z.array(FileEntry)),
  total_count: z.optional(z.int()),
  is_truncated: z.optional(z.boolean()),
  kind: z.literal('ListDirectoryObservation'),
});

/** `ReadFileObservation`. */
export const ReadFileObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  file_path: z.string(),
  file_content: z.optional(z.string()),
  is_truncated: z.optional(z.boolean()),
  lines_shown: z.optional(z.nullable(z.tuple([z.int(), z.int()]))),
  total_lines: z.optional(z.nullable(z.int())),
  kind: z.literal('ReadFileObservation'),
});

/** `WriteFileObservation`. */
export const WriteFileObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  file_path: z.optional(z.nullable(z.string())),
  is_new_file: z.optional(z.boolean()),
  old_content: z.optional(z.nullable(z.string())),
  new_content: z.optional(z.nullable(z.string())),
  kind: z.literal('WriteFileObservation'),
});

/** `GlobObservation`. */
export const GlobObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  files: z.array(z.string()),
  pattern: z.string(),
  search_path: z.string(),
  truncated: z.optional(z.boolean()),
  kind: z.literal('GlobObservation'),
});

/** `GrepObservation`. */
export const GrepObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  matches: z.array(z.string()),
  pattern: z.string(),
  search_path: z.string(),
  include_pattern: z.optional(z.nullable(z.string())),
  truncated: z.optional(z.boolean()),
  kind: z.literal('GrepObservation'),
});

/** `PlanningFileEditorObservation`. */
export const PlanningFileEditorObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  command: z.enum(['view', 'create', 'str_replace', 'insert', 'undo_edit']),
  path: z.optional(z.nullable(z.string())),
  prev_exist: z.optional(z.boolean()),
  old_content: z.optional(z.nullable(z.string())),
  new_content: z.optional(z.nullable(z.string())),
  kind: z.literal('PlanningFileEditorObservation'),
});

/** `TaskObservation`. */
export const TaskObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  task_id: z.string(),
  subagent: z.string(),
  status: z.string(),
  kind: z.literal('TaskObservation'),
});

/** `TaskTrackerObservation`. */
export const TaskTrackerObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  command: z.enum(['view', 'plan']),
  task_list: z.optional(z.array(TaskItem)),
  kind: z.literal('TaskTrackerObservation'),
});

/** `CmdOutputMetadata`. */
export const CmdOutputMetadata = z.looseObject({
  exit_code: z.optional(z.int()),
  pid: z.optional(z.int()),
  username: z.optional(z.nullable(z.string())),
  hostname: z.optional(z.nullable(z.string())),
  working_dir: z.optional(z.nullable(z.string())),
  py_interpreter_path: z.optional(z.nullable(z.string())),
  prefix: z.optional(z.string()),
  suffix: z.optional(z.string()),
});

/** `TerminalObservation`. */
export const TerminalObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  command: z.nullable(z.string()),
  exit_code: z.optional(z.nullable(z.int())),
  timeout: z.optional(z.boolean()),
  metadata: z.optional(CmdOutputMetadata),
  full_output_save_dir: z.optional(z.nullable(z.string())),
  kind: z.literal('TerminalObservation'),
});

/** `ConsultTomObservation`. */
export const ConsultTomObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  suggestions: z.optional(z.string()),
  confidence: z.optional(z.nullable(z.number())),
  reasoning: z.optional(z.nullable(z.string())),
  kind: z.literal('ConsultTomObservation'),
});

/** `SleeptimeComputeObservation`. */
export const SleeptimeComputeObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  message: z.optional(z.string()),
  sessions_processed: z.optional(z.int()),
  kind: z.literal('SleeptimeComputeObservation'),
});

/** `WorkflowObservation`. */
export const WorkflowObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  name: z.string(),
  status: z.enum(['completed', 'error']),
  kind: z.literal('WorkflowObservation'),
});

/** `StrReplaceEditorObservation`: the file editor's observation under the name Agent Canvas also renders (see `StrReplaceEditorAction`). */
export const StrReplaceEditorObservation = z.object({ ...FileEditorObservation.shape, kind: z.literal('StrReplaceEditorObservation') });

/** Every tool observation, by kind. */
export const OBSERVATION_SCHEMAS = {
  StrReplaceEditorObservation,
  MCPToolObservation,
  FinishObservation,
  InvokeSkillObservation,
  SwitchLLMObservation,
  ThinkObservation,
  VisionInspectObservation,
  ClientToolObservation,
  ApplyPatchObservation,
  BrowserObservation,
  DelegateObservation,
  FileEditorObservation,
  EditObservation,
  ListDirectoryObservation,
  ReadFileObservation,
  WriteFileObservation,
  GlobObservation,
  GrepObservation,
  PlanningFileEditorObservation,
  TaskObservation,
  TaskTrackerObservation,
  TerminalObservation,
  ConsultTomObservation,
  SleeptimeComputeObservation,
  WorkflowObservation,
} as const;

/** `Observation`: every tool observation, told apart by `kind`. */
export const Observation = z.discriminatedUnion('kind', [
  StrReplaceEditorObservation,
  MCPToolObservation,
  FinishObservation,
  InvokeSkillObservation,
  SwitchLLMObservation,
  ThinkObservation,
  VisionInspectObservation,
  ClientToolObservation,
  ApplyPatchObservation,
  BrowserObservation,
  DelegateObservation,
  FileEditorObservation,
  EditObservation,
  ListDirectoryObservation,
  ReadFileObservation,
  WriteFileObservation,
  GlobObservation,
  GrepObservation,
  PlanningFileEditorObservation,
  TaskObservation,
  TaskTrackerObservation,
  TerminalObservation,
  ConsultTomObservation,
  SleeptimeComputeObservation,
  WorkflowObservation,
]);

/** `ObservationEvent`. */
export const ObservationEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  tool_name: z.string(),
  tool_call_id: z.string(),
  observation: Observation,
  action_id: z.string(),
  extended_content: z.optional(z.array(TextContent)),
  kind: z.literal('ObservationEvent'),
});

/** `UserRejectObservation`. */
export const UserRejectObservation = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  tool_name: z.string(),
  tool_call_id: z.string(),
  rejection_reason: z.optional(z.string()),
  rejection_source: z.optional(z.enum(['user', 'hook'])),
  action_id: z.string(),
  kind: z.literal('UserRejectObservation'),
});

/** `openhands.sdk.tool.tool.ToolAnnotations`. */
export const ToolAnnotations = z.looseObject({
  title: z.optional(z.nullable(z.string())),
  readOnlyHint: z.optional(z.boolean()),
  destructiveHint: z.optional(z.boolean()),
  idempotentHint: z.optional(z.boolean()),
  openWorldHint: z.optional(z.boolean()),
});

/** `Icon`. */
export const Icon = z.looseObject({
  src: z.string(),
  mimeType: z.optional(z.nullable(z.string())),
  sizes: z.optional(z.nullable(z.array(z.string()))),
});

/** `ToolAnnotations`. */
export const McpToolAnnotations = z.looseObject({
  title: z.optional(z.nullable(z.string())),
  readOnlyHint: z.optional(z.nullable(z.boolean())),
  destructiveHint: z.optional(z.nullable(z.boolean())),
  idempotentHint: z.optional(z.nullable(z.boolean())),
  openWorldHint: z.optional(z.nullable(z.boolean())),
});

/** `ToolExecution`. */
export const ToolExecution = z.looseObject({ taskSupport: z.optional(z.nullable(z.enum(['forbidden', 'optional', 'required']))) });

/** `Tool`. */
export const McpTool = z.looseObject({
  name: z.string(),
  title: z.optional(z.nullable(z.string())),
  description: z.optional(z.nullable(z.string())),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  icons: z.optional(z.nullable(z.array(Icon))),
  annotations: z.optional(z.nullable(McpToolAnnotations)),
  _meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  execution: z.optional(z.nullable(ToolExecution)),
});

/** `MCPToolDefinition`. */
export const MCPToolDefinition = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  mcp_tool: McpTool,
  kind: z.literal('MCPToolDefinition'),
  title: z.string(),
});

/** `FinishTool`. */
export const FinishTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('FinishTool'),
  title: z.string(),
});

/** `InvokeSkillTool`. */
export const InvokeSkillTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('InvokeSkillTool'),
  title: z.string(),
});

/** `SwitchLLMTool`. */
export const SwitchLLMTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('SwitchLLMTool'),
  title: z.string(),
});
