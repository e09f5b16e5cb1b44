/** The agent server's event schemas, in `../sdk-events.ts`'s order: ServerErrorEvent to TaskTrackerAction. */
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
