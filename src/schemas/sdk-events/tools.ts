/** The agent server's event schemas, in `../sdk-events.ts`'s order: ThinkTool to TaskToolSet. */
import * as z from 'zod/mini';
import { ToolAnnotations } from './observations.js';

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
