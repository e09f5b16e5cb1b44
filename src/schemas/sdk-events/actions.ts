/** The agent server's event schemas, in `../sdk-events.ts`'s order: TerminalAction to EditObservation. */
import * as z from 'zod/mini';
import {
  ApplyPatchAction,
  BrowserAction,
  BrowserClickAction,
  BrowserCloseTabAction,
  BrowserGetContentAction,
  BrowserGetStateAction,
  BrowserGetStorageAction,
  BrowserGoBackAction,
  BrowserListTabsAction,
  BrowserNavigateAction,
  BrowserScrollAction,
  BrowserSetStorageAction,
  BrowserStartRecordingAction,
  BrowserStopRecordingAction,
  BrowserSwitchTabAction,
  BrowserTypeAction,
  DelegateAction,
  EditAction,
  FileEditorAction,
  FinishAction,
  GlobAction,
  GrepAction,
  InvokeSkillAction,
  ListDirectoryAction,
  MCPToolAction,
  PlanningFileEditorAction,
  ReadFileAction,
  ReasoningItemModel,
  RedactedThinkingBlock,
  SwitchLLMAction,
  TaskAction,
  TaskTrackerAction,
  TextContent,
  ThinkAction,
  ThinkingBlock,
  VisionInspectAction,
  WriteFileAction,
} from './events.js';

/** `TerminalAction`. */
export const TerminalAction = z.object({
  command: z.string(),
  is_input: z.optional(z.boolean()),
  timeout: z.optional(z.nullable(z.number().check(z.gte(0.0)))),
  reset: z.optional(z.boolean()),
  kind: z.literal('TerminalAction'),
});

/** `ConsultTomAction`. */
export const ConsultTomAction = z.object({
  reason: z.string(),
  use_user_message: z.optional(z.boolean()),
  custom_query: z.optional(z.nullable(z.string())),
  kind: z.literal('ConsultTomAction'),
});

/** `SleeptimeComputeAction`. */
export const SleeptimeComputeAction = z.object({ kind: z.literal('SleeptimeComputeAction') });

/** `WorkflowAction`. */
export const WorkflowAction = z.object({
  name: z.string(),
  script: z.string(),
  max_concurrency: z.optional(z.int().check(z.gte(1.0), z.lte(64.0))),
  kind: z.literal('WorkflowAction'),
});

/**
 * `StrReplaceEditorAction`: the file editor's action under the name Agent Canvas's type guards also
 * render (not an SDK kind: the `str_replace` step publishes it so that card can be built; see
 * `drift/known-differences.ts`).
 */
export const StrReplaceEditorAction = z.object({ ...FileEditorAction.shape, kind: z.literal('StrReplaceEditorAction') });

/** Every tool action, by kind. */
export const ACTION_SCHEMAS = {
  StrReplaceEditorAction,
  MCPToolAction,
  FinishAction,
  InvokeSkillAction,
  SwitchLLMAction,
  ThinkAction,
  VisionInspectAction,
  ApplyPatchAction,
  BrowserAction,
  BrowserClickAction,
  BrowserCloseTabAction,
  BrowserGetContentAction,
  BrowserGetStateAction,
  BrowserGetStorageAction,
  BrowserGoBackAction,
  BrowserListTabsAction,
  BrowserNavigateAction,
  BrowserScrollAction,
  BrowserSetStorageAction,
  BrowserStartRecordingAction,
  BrowserStopRecordingAction,
  BrowserSwitchTabAction,
  BrowserTypeAction,
  DelegateAction,
  FileEditorAction,
  EditAction,
  ListDirectoryAction,
  ReadFileAction,
  WriteFileAction,
  GlobAction,
  GrepAction,
  PlanningFileEditorAction,
  TaskAction,
  TaskTrackerAction,
  TerminalAction,
  ConsultTomAction,
  SleeptimeComputeAction,
  WorkflowAction,
} as const;

/** `Action`: every tool action, told apart by `kind`. */
export const Action = z.discriminatedUnion('kind', [
  StrReplaceEditorAction,
  MCPToolAction,
  FinishAction,
  InvokeSkillAction,
  SwitchLLMAction,
  ThinkAction,
  VisionInspectAction,
  ApplyPatchAction,
  BrowserAction,
  BrowserClickAction,
  BrowserCloseTabAction,
  BrowserGetContentAction,
  BrowserGetStateAction,
  BrowserGetStorageAction,
  BrowserGoBackAction,
  BrowserListTabsAction,
  BrowserNavigateAction,
  BrowserScrollAction,
  BrowserSetStorageAction,
  BrowserStartRecordingAction,
  BrowserStopRecordingAction,
  BrowserSwitchTabAction,
  BrowserTypeAction,
  DelegateAction,
  FileEditorAction,
  EditAction,
  ListDirectoryAction,
  ReadFileAction,
  WriteFileAction,
  GlobAction,
  GrepAction,
  PlanningFileEditorAction,
  TaskAction,
  TaskTrackerAction,
  TerminalAction,
  ConsultTomAction,
  SleeptimeComputeAction,
  WorkflowAction,
]);

/** `MessageToolCall`. */
export const MessageToolCall = z.looseObject({
  id: z.string(),
  responses_item_id: z.optional(z.nullable(z.string())),
  name: z.string(),
  arguments: z.string(),
  origin: z.enum(['completion', 'responses']),
});

/** `SecurityRisk`. */
export const SecurityRisk = z.enum(['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH']);

/** `CriticResult`. */
export const CriticResult = z.looseObject({
  score: z.number().check(z.gte(0.0), z.lte(1.0)),
  message: z.nullable(z.string()),
  metadata: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
});

/**
 * `ClientAction_<name>`: the action of a client tool a frontend registered in `POST /conversations`
 * (openhands-sdk `tool/client_tool.py`: `Action.from_mcp_schema` names the kind after the tool, its
 * fields are the tool's parameters), e.g. Agent Canvas's `ClientAction_canvas_ui_control`.
 */
export const ClientAction = z.looseObject({ kind: z.string().check(z.regex(/^ClientAction_[A-Za-z0-9_-]+$/)) });

/** `ActionEvent`. */
export const ActionEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  thought: z.array(TextContent),
  reasoning_content: z.optional(z.nullable(z.string())),
  thinking_blocks: z.optional(z.array(z.union([ThinkingBlock, RedactedThinkingBlock]))),
  responses_reasoning_item: z.optional(z.nullable(ReasoningItemModel)),
  action: z.optional(z.nullable(z.union([Action, ClientAction]))),
  tool_name: z.string(),
  tool_call_id: z.string(),
  tool_call: MessageToolCall,
  llm_response_id: z.string(),
  security_risk: z.optional(SecurityRisk),
  critic_result: z.optional(z.nullable(CriticResult)),
  summary: z.optional(z.nullable(z.string())),
  kind: z.literal('ActionEvent'),
});

/** `ImageContent`. */
export const ImageContent = z.looseObject({
  cache_prompt: z.optional(z.boolean()),
  type: z.optional(z.literal('image')),
  image_urls: z.array(z.string()),
});

/** `Message`. */
export const LlmMessage = z.looseObject({
  role: z.enum(['user', 'system', 'assistant', 'tool']),
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  tool_calls: z.optional(z.nullable(z.array(MessageToolCall))),
  tool_call_id: z.optional(z.nullable(z.string())),
  name: z.optional(z.nullable(z.string())),
  reasoning_content: z.optional(z.nullable(z.string())),
  thinking_blocks: z.optional(z.array(z.union([ThinkingBlock, RedactedThinkingBlock]))),
  responses_reasoning_item: z.optional(z.nullable(ReasoningItemModel)),
});

/** `MessageEvent`. */
export const MessageEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  llm_message: LlmMessage,
  llm_response_id: z.optional(z.nullable(z.string())),
  activated_skills: z.optional(z.array(z.string())),
  extended_content: z.optional(z.array(TextContent)),
  sender: z.optional(z.nullable(z.string())),
  critic_result: z.optional(z.nullable(CriticResult)),
  kind: z.literal('MessageEvent'),
});

/** `AgentErrorEvent`. */
export const AgentErrorEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  tool_name: z.string(),
  tool_call_id: z.string(),
  error: z.string(),
  kind: z.literal('AgentErrorEvent'),
});

/** `MCPToolObservation`. */
export const MCPToolObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  tool_name: z.string(),
  kind: z.literal('MCPToolObservation'),
});

/** `FinishObservation`. */
export const FinishObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  kind: z.literal('FinishObservation'),
});

/** `InvokeSkillObservation`. */
export const InvokeSkillObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  skill_name: z.string(),
  kind: z.literal('InvokeSkillObservation'),
});

/** `SwitchLLMObservation`. */
export const SwitchLLMObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  profile_name: z.string(),
  reason: z.optional(z.nullable(z.string())),
  active_model: z.optional(z.nullable(z.string())),
  kind: z.literal('SwitchLLMObservation'),
});

/** `ThinkObservation`. */
export const ThinkObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  kind: z.literal('ThinkObservation'),
});

/** `VisionInspectObservation`. */
export const VisionInspectObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  image_index: z.int(),
  question: z.string(),
  profile_name: z.optional(z.nullable(z.string())),
  model: z.optional(z.nullable(z.string())),
  base_url: z.optional(z.nullable(z.string())),
  answer: z.optional(z.nullable(z.string())),
  kind: z.literal('VisionInspectObservation'),
});

/** `ClientToolObservation`. */
export const ClientToolObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  kind: z.literal('ClientToolObservation'),
});

/** `ActionType`. */
export const ActionType = z.enum(['add', 'delete', 'update']);

/** `FileChange`. */
export const FileChange = z.looseObject({
  type: ActionType,
  old_content: z.optional(z.nullable(z.string())),
  new_content: z.optional(z.nullable(z.string())),
  move_path: z.optional(z.nullable(z.string())),
});

/** `Commit`. */
export const Commit = z.looseObject({ changes: z.optional(z.record(z.string(), FileChange)) });

/** `ApplyPatchObservation`. */
export const ApplyPatchObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  message: z.optional(z.string()),
  fuzz: z.optional(z.int()),
  commit: z.optional(z.nullable(Commit)),
  kind: z.literal('ApplyPatchObservation'),
});

/** `BrowserObservation`. */
export const BrowserObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  screenshot_data: z.optional(z.nullable(z.string())),
  full_output_save_dir: z.optional(z.nullable(z.string())),
  kind: z.literal('BrowserObservation'),
});

/** `DelegateObservation`. */
export const DelegateObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  command: z.enum(['spawn', 'delegate']),
  kind: z.literal('DelegateObservation'),
});

/** `FileEditorObservation`. */
export const FileEditorObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  command: z.enum(['view', 'create', 'str_replace', 'insert', 'undo_edit']),
  path: z.optional(z.nullable(z.string())),
  prev_exist: z.optional(z.boolean()),
  old_content: z.optional(z.nullable(z.string())),
  new_content: z.optional(z.nullable(z.string())),
  kind: z.literal('FileEditorObservation'),
});

/** `EditObservation`. */
export const EditObservation = z.object({
  content: z.optional(z.array(z.union([TextContent, ImageContent]))),
  is_error: z.optional(z.boolean()),
  file_path: z.optional(z.nullable(z.string())),
  is_new_file: z.optional(z.boolean()),
  replacements_made: z.optional(z.int()),
  old_content: z.optional(z.nullable(z.string())),
  new_content: z.optional(z.nullable(z.string())),
  kind: z.literal('EditObservation'),
});
