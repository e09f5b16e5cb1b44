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
export * from './sdk-events/events.js';
export * from './sdk-events/actions.js';
export * from './sdk-events/observations.js';
export * from './sdk-events/tools.js';
export * from './sdk-events/event-union.js';
