import { SandboxSpecInfo } from '../schemas/sandbox-spec.js';
import {
  ConversationRecord, SandboxRecord, StartTaskRecord,
} from '../schemas/records.js';
import type { ProviderType } from '../schemas/common.js';
import type { ProviderToken } from '../schemas/legacy.js';
import type { MCPConfig } from '../schemas/mcp.js';
import { Table } from './table.js';

/** Everything the fake holds: @msw/data collections with indexes, plus the caller's secrets. */
export class Store {
  /** Sandbox specs; the first one stored is the default. */
  readonly sandboxSpecs = new Table(SandboxSpecInfo, {});
  /** Sandboxes (MISSING ones are not stored). */
  readonly sandboxes = new Table(SandboxRecord, {});
  /** Conversations of both versions, with orderings for the V1 lists. */
  readonly conversations = new Table(ConversationRecord, {
    v1: (c) => c.version === 'V1',
    v1TopLevel: (c) => c.version === 'V1' && c.parent_conversation_id === null,
  });
  /** Start tasks of app conversations. */
  readonly startTasks = new Table(StartTaskRecord, {});
  /** Ids of the children of each conversation (`sub_conversation_ids`). */
  readonly childrenOf = new Map<string, string[]>();
  /** Stored git provider tokens: secrets, never returned by any endpoint. */
  providerTokens: Partial<Record<ProviderType, ProviderToken>> = {};
  /** Stored user-level MCP configuration. */
  mcpConfig: MCPConfig | null = null;
  /** Id of the default sandbox spec. */
  defaultSandboxSpecId: string | null = null;
}
