/**
 * The agent server's events with every field of every kind (openhands-sdk `openhands/sdk/event/`),
 * the actions and observations of every tool (`openhands/sdk/tool/builtins/`, `openhands-tools/`)
 * and the tool definitions a `SystemPromptEvent` lists: types, enums and required-ness as the
 * published app-server document (Feb 2026, `-Output` components) writes them, with what the
 * newest source changed (see `drift/known-differences.ts`, "newest SDK"). The agent server writes
 * every event with its `id`, `timestamp` and `source` (their defaults are serialized), so the
 * schemas here require them. Written from that document's components by a one-off script, kept by
 * hand since; `agent-events.ts` names them for the apps and the AsyncAPI document.
 */
import * as z from 'zod/mini';

/** `ServerErrorEvent`. */
export const ServerErrorEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  code: z.string(),
  detail: z.string(),
  kind: z.literal('ServerErrorEvent'),
});

/** `ACPToolCallEvent`. */
export const ACPToolCallEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  tool_call_id: z.string(),
  title: z.string(),
  status: z.optional(z.nullable(z.string())),
  tool_kind: z.optional(z.nullable(z.string())),
  raw_input: z.optional(z.nullable(z.unknown())),
  raw_output: z.optional(z.nullable(z.unknown())),
  content: z.optional(z.nullable(z.array(z.unknown()))),
  is_error: z.optional(z.boolean()),
  kind: z.literal('ACPToolCallEvent'),
});

/** `Condensation`. */
export const Condensation = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  forgotten_event_ids: z.optional(z.array(z.string())),
  summary: z.optional(z.nullable(z.string())),
  summary_offset: z.optional(z.nullable(z.int().check(z.gte(0.0)))),
  llm_response_id: z.string(),
  kind: z.literal('Condensation'),
});

/** `CondensationRequest`. */
export const CondensationRequest = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  kind: z.literal('CondensationRequest'),
});

/** `CondensationSummaryEvent`. */
export const CondensationSummaryEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  summary: z.string(),
  kind: z.literal('CondensationSummaryEvent'),
});

/** `ErrorClassification`: a failure's kind, whether a retry may help, and what the user can do (openhands-sdk `event/error_classification.py`, Aug 2026). */
export const ErrorClassification = z.object({
  kind: z.enum(['auth', 'quota', 'rate_limit', 'config', 'transient', 'agent_action', 'internal', 'unknown']),
  retryable: z.boolean(),
  user_action: z.optional(z.enum(['none', 'retry', 'settings'])),
  error_id: z.optional(z.nullable(z.string())),
});

/** `ConversationErrorEvent`. */
export const ConversationErrorEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  code: z.string(),
  detail: z.string(),
  // Newest source (Aug 2026, error_classification.py); not in the Feb 2026 document (a declared difference).
  classification: z.optional(z.nullable(ErrorClassification)),
  kind: z.literal('ConversationErrorEvent'),
});

/** `ConversationStateUpdateEvent`. */
export const ConversationStateUpdateEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  key: z.optional(z.string()),
  value: z.optional(z.unknown()),
  kind: z.literal('ConversationStateUpdateEvent'),
});

/** `HookExecutionEvent`. */
export const HookExecutionEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  hook_event_type: z.enum(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop']),
  hook_command: z.string(),
  tool_name: z.optional(z.nullable(z.string())),
  success: z.boolean(),
  blocked: z.optional(z.boolean()),
  exit_code: z.int(),
  stdout: z.optional(z.string()),
  stderr: z.optional(z.string()),
  reason: z.optional(z.nullable(z.string())),
  additional_context: z.optional(z.nullable(z.string())),
  error: z.optional(z.nullable(z.string())),
  action_id: z.optional(z.nullable(z.string())),
  message_id: z.optional(z.nullable(z.string())),
  hook_input: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('HookExecutionEvent'),
});

/** `LLMCompletionLogEvent`. */
export const LLMCompletionLogEvent = z.object({
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
  parent_id: z.optional(z.nullable(z.string())),
  filename: z.string(),
  log_data: z.string(),
  model_name: z.optional(z.string()),
  usage_id: z.optional(z.string()),
  kind: z.literal('LLMCompletionLogEvent'),
});

/** `TextContent`. */
export const TextContent = z.object({ cache_prompt: z.optional(z.boolean()), type: z.optional(z.literal('text')), text: z.string() });

/** `ThinkingBlock`. */
export const ThinkingBlock = z.looseObject({
  type: z.optional(z.literal('thinking')),
  thinking: z.string(),
  signature: z.optional(z.nullable(z.string())),
});

/** `RedactedThinkingBlock`. */
export const RedactedThinkingBlock = z.looseObject({ type: z.optional(z.literal('redacted_thinking')), data: z.string() });

/** `ReasoningItemModel`. */
export const ReasoningItemModel = z.looseObject({
  id: z.optional(z.nullable(z.string())),
  summary: z.optional(z.array(z.string())),
  content: z.optional(z.nullable(z.array(z.string()))),
  encrypted_content: z.optional(z.nullable(z.string())),
  status: z.optional(z.nullable(z.string())),
});

/** `MCPToolAction`. */
export const MCPToolAction = z.object({ data: z.optional(z.record(z.string(), z.unknown())), kind: z.literal('MCPToolAction') });

/** `FinishAction`. */
export const FinishAction = z.object({ message: z.string(), kind: z.literal('FinishAction') });

/** `InvokeSkillAction`. */
export const InvokeSkillAction = z.object({ name: z.string(), kind: z.literal('InvokeSkillAction') });

/** `SwitchLLMAction`. */
export const SwitchLLMAction = z.object({ profile_name: z.string(), reason: z.string(), kind: z.literal('SwitchLLMAction') });

/** `ThinkAction`. */
export const ThinkAction = z.object({ thought: z.string(), kind: z.literal('ThinkAction') });

/** `VisionInspectAction`. */
export const VisionInspectAction = z.object({
  image_index: z.int().check(z.gte(0.0)),
  question: z.string(),
  profile_name: z.optional(z.nullable(z.string())),
  kind: z.literal('VisionInspectAction'),
});

/** `ApplyPatchAction`. */
export const ApplyPatchAction = z.object({ patch: z.string(), kind: z.literal('ApplyPatchAction') });

/** `BrowserAction`. */
export const BrowserAction = z.object({ kind: z.literal('BrowserAction') });

/** `BrowserClickAction`. */
export const BrowserClickAction = z.object({
  index: z.int().check(z.gte(0.0)),
  new_tab: z.optional(z.boolean()),
  kind: z.literal('BrowserClickAction'),
});

/** `BrowserCloseTabAction`. */
export const BrowserCloseTabAction = z.object({ tab_id: z.string(), kind: z.literal('BrowserCloseTabAction') });

/** `BrowserGetContentAction`. */
export const BrowserGetContentAction = z.object({
  extract_links: z.optional(z.boolean()),
  start_from_char: z.optional(z.int().check(z.gte(0.0))),
  kind: z.literal('BrowserGetContentAction'),
});

/** `BrowserGetStateAction`. */
export const BrowserGetStateAction = z.object({ include_screenshot: z.optional(z.boolean()), kind: z.literal('BrowserGetStateAction') });

/** `BrowserGetStorageAction`. */
export const BrowserGetStorageAction = z.object({ kind: z.literal('BrowserGetStorageAction') });

/** `BrowserGoBackAction`. */
export const BrowserGoBackAction = z.object({ kind: z.literal('BrowserGoBackAction') });

/** `BrowserListTabsAction`. */
export const BrowserListTabsAction = z.object({ kind: z.literal('BrowserListTabsAction') });

/** `BrowserNavigateAction`. */
export const BrowserNavigateAction = z.object({
  url: z.string(),
  new_tab: z.optional(z.boolean()),
  kind: z.literal('BrowserNavigateAction'),
});

/** `BrowserScrollAction`. */
export const BrowserScrollAction = z.object({ direction: z.optional(z.enum(['up', 'down'])), kind: z.literal('BrowserScrollAction') });

/** `BrowserSetStorageAction`. */
export const BrowserSetStorageAction = z.object({
  storage_state: z.record(z.string(), z.unknown()),
  kind: z.literal('BrowserSetStorageAction'),
});

/** `BrowserStartRecordingAction`. */
export const BrowserStartRecordingAction = z.object({ kind: z.literal('BrowserStartRecordingAction') });

/** `BrowserStopRecordingAction`. */
export const BrowserStopRecordingAction = z.object({ kind: z.literal('BrowserStopRecordingAction') });

/** `BrowserSwitchTabAction`. */
export const BrowserSwitchTabAction = z.object({ tab_id: z.string(), kind: z.literal('BrowserSwitchTabAction') });

/** `BrowserTypeAction`. */
export const BrowserTypeAction = z.object({ index: z.int().check(z.gte(0.0)), text: z.string(), kind: z.literal('BrowserTypeAction') });

/** `DelegateAction`. */
export const DelegateAction = z.object({
  command: z.enum(['spawn', 'delegate']),
  ids: z.optional(z.nullable(z.array(z.string()))),
  agent_types: z.optional(z.nullable(z.array(z.string()))),
  tasks: z.optional(z.nullable(z.record(z.string(), z.string()))),
  kind: z.literal('DelegateAction'),
});

/** `FileEditorAction`. */
export const FileEditorAction = z.object({
  command: z.enum(['view', 'create', 'str_replace', 'insert', 'undo_edit']),
  path: z.string(),
  file_text: z.optional(z.nullable(z.string())),
  old_str: z.optional(z.nullable(z.string())),
  new_str: z.optional(z.nullable(z.string())),
  insert_line: z.optional(z.nullable(z.int().check(z.gte(0.0)))),
  view_range: z.optional(z.nullable(z.array(z.int()))),
  kind: z.literal('FileEditorAction'),
});

/** `EditAction`. */
export const EditAction = z.object({
  file_path: z.string(),
  old_string: z.string(),
  new_string: z.string(),
  expected_replacements: z.optional(z.int().check(z.gte(0.0))),
  kind: z.literal('EditAction'),
});

/** `ListDirectoryAction`. */
export const ListDirectoryAction = z.object({
  dir_path: z.optional(z.string()),
  recursive: z.optional(z.boolean()),
  kind: z.literal('ListDirectoryAction'),
});

/** `ReadFileAction`. */
export const ReadFileAction = z.object({
  file_path: z.string(),
  offset: z.optional(z.nullable(z.int().check(z.gte(0.0)))),
  limit: z.optional(z.nullable(z.int().check(z.gte(1.0)))),
  kind: z.literal('ReadFileAction'),
});

/** `WriteFileAction`. */
export const WriteFileAction = z.object({ file_path: z.string(), content: z.string(), kind: z.literal('WriteFileAction') });

/** `GlobAction`. */
export const GlobAction = z.object({ pattern: z.string(), path: z.optional(z.nullable(z.string())), kind: z.literal('GlobAction') });

/** `GrepAction`. */
export const GrepAction = z.object({
  pattern: z.string(),
  path: z.optional(z.nullable(z.string())),
  include: z.optional(z.nullable(z.string())),
  kind: z.literal('GrepAction'),
});

/** `PlanningFileEditorAction`. */
export const PlanningFileEditorAction = z.object({
  command: z.enum(['view', 'create', 'str_replace', 'insert', 'undo_edit']),
  path: z.string(),
  file_text: z.optional(z.nullable(z.string())),
  old_str: z.optional(z.nullable(z.string())),
  new_str: z.optional(z.nullable(z.string())),
  insert_line: z.optional(z.nullable(z.int().check(z.gte(0.0)))),
  view_range: z.optional(z.nullable(z.array(z.int()))),
  kind: z.literal('PlanningFileEditorAction'),
});

/** `TaskAction`. */
export const TaskAction = z.object({
  description: z.optional(z.nullable(z.string())),
  prompt: z.string(),
  subagent_type: z.optional(z.string()),
  resume: z.optional(z.nullable(z.string())),
  kind: z.literal('TaskAction'),
});

/** `TaskItem`. */
export const TaskItem = z.looseObject({
  title: z.string(),
  notes: z.optional(z.string()),
  status: z.optional(z.enum(['todo', 'in_progress', 'done'])),
});

/** `TaskTrackerAction`. */
export const TaskTrackerAction = z.object({
  command: z.optional(z.enum(['view', 'plan'])),
  task_list: z.optional(z.array(TaskItem)),
  kind: z.literal('TaskTrackerAction'),
});

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
  action: z.optional(z.nullable(Action)),
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

/** `ThinkTool`. */
export const ThinkTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('ThinkTool'),
  title: z.string(),
});

/** `VisionInspectTool`. */
export const VisionInspectTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('VisionInspectTool'),
  title: z.string(),
});

/** `ClientTool`. */
export const ClientTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  client_tool_name: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  kind: z.literal('ClientTool'),
  title: z.string(),
});

/** `ApplyPatchTool`. */
export const ApplyPatchTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('ApplyPatchTool'),
  title: z.string(),
});

/** `BrowserClickTool`. */
export const BrowserClickTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserClickTool'),
  title: z.string(),
});

/** `BrowserCloseTabTool`. */
export const BrowserCloseTabTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserCloseTabTool'),
  title: z.string(),
});

/** `BrowserGetContentTool`. */
export const BrowserGetContentTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserGetContentTool'),
  title: z.string(),
});

/** `BrowserGetStateTool`. */
export const BrowserGetStateTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserGetStateTool'),
  title: z.string(),
});

/** `BrowserGetStorageTool`. */
export const BrowserGetStorageTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserGetStorageTool'),
  title: z.string(),
});

/** `BrowserGoBackTool`. */
export const BrowserGoBackTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserGoBackTool'),
  title: z.string(),
});

/** `BrowserListTabsTool`. */
export const BrowserListTabsTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserListTabsTool'),
  title: z.string(),
});

/** `BrowserNavigateTool`. */
export const BrowserNavigateTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserNavigateTool'),
  title: z.string(),
});

/** `BrowserScrollTool`. */
export const BrowserScrollTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserScrollTool'),
  title: z.string(),
});

/** `BrowserSetStorageTool`. */
export const BrowserSetStorageTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserSetStorageTool'),
  title: z.string(),
});

/** `BrowserStartRecordingTool`. */
export const BrowserStartRecordingTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserStartRecordingTool'),
  title: z.string(),
});

/** `BrowserStopRecordingTool`. */
export const BrowserStopRecordingTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserStopRecordingTool'),
  title: z.string(),
});

/** `BrowserSwitchTabTool`. */
export const BrowserSwitchTabTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserSwitchTabTool'),
  title: z.string(),
});

/** `BrowserToolSet`. */
export const BrowserToolSet = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserToolSet'),
  title: z.string(),
});

/** `BrowserTypeTool`. */
export const BrowserTypeTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('BrowserTypeTool'),
  title: z.string(),
});

/** `FileEditorTool`. */
export const FileEditorTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('FileEditorTool'),
  title: z.string(),
});

/** `EditTool`. */
export const EditTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('EditTool'),
  title: z.string(),
});

/** `ListDirectoryTool`. */
export const ListDirectoryTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('ListDirectoryTool'),
  title: z.string(),
});

/** `ReadFileTool`. */
export const ReadFileTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('ReadFileTool'),
  title: z.string(),
});

/** `WriteFileTool`. */
export const WriteFileTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('WriteFileTool'),
  title: z.string(),
});

/** `GlobTool`. */
export const GlobTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('GlobTool'),
  title: z.string(),
});

/** `GrepTool`. */
export const GrepTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('GrepTool'),
  title: z.string(),
});

/** `PlanningFileEditorTool`. */
export const PlanningFileEditorTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('PlanningFileEditorTool'),
  title: z.string(),
});

/** `TaskTool`. */
export const TaskTool = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('TaskTool'),
  title: z.string(),
});

/** `TaskToolSet`. */
export const TaskToolSet = z.looseObject({
  description: z.string(),
  action_type: z.string(),
  observation_type: z.optional(z.nullable(z.string())),
  annotations: z.optional(z.nullable(ToolAnnotations)),
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  kind: z.literal('TaskToolSet'),
  title: z.string(),
});

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

/** Every event kind, by kind. */
export const EVENT_KINDS_SCHEMAS = {
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
} as const;

/** `Event`: every event kind, told apart by `kind`. */
export const Event = z.discriminatedUnion('kind', [
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
]);
