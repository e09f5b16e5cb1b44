/**
 * Everything the fake holds: @msw/data collections (with an id index and orderings kept beside
 * them in `Table`), the links between conversations, and the caller's secrets. Every change is
 * announced to `onChange` (see `events.ts`).
 */
import { Collection } from '@msw/data';
import { SandboxSpecInfo } from '../schemas/sandbox-spec.js';
import {
  ConversationRecord, MCPConfigRecord, ProviderTokenRecord, SandboxRecord, StartTaskRecord,
} from '../schemas/records.js';
import type { ProviderType } from '../schemas/common.js';
import type { ProviderToken } from '../schemas/legacy.js';
import type { MCPConfig } from '../schemas/mcp.js';
import type { ChangeSink } from './events.js';
import { StoreBudget, Table } from './table.js';

const ignore: ChangeSink = () => undefined;

/** Everything the fake holds: @msw/data collections with indexes, plus the caller's secrets. */
export class Store {
  /** Where changes are announced; the service subscribes once the store is loaded. */
  onChange: ChangeSink = ignore;
  readonly #sink = () => this.onChange;
  /** What the store may hold; a change past it is refused (507). */
  readonly budget: StoreBudget;
  /** Sandbox specs; the first one stored is the default. */
  readonly sandboxSpecs: Table<typeof SandboxSpecInfo>;
  /** Sandboxes (MISSING ones are not stored). */
  readonly sandboxes: Table<typeof SandboxRecord>;
  /** Conversations of both versions, with orderings for the V1 lists. */
  readonly conversations: Table<typeof ConversationRecord, 'v0' | 'v1' | 'v1TopLevel'>;
  /** Start tasks of app conversations. */
  readonly startTasks: Table<typeof StartTaskRecord>;

  /** An empty store of at most `budget`. */
  constructor(budget: StoreBudget = new StoreBudget()) {
    this.budget = budget;
    this.sandboxSpecs = new Table('sandbox_spec', SandboxSpecInfo, {}, this.#sink, budget);
    this.sandboxes = new Table('sandbox', SandboxRecord, {}, this.#sink, budget, 'agent_port');
    this.conversations = new Table('conversation', ConversationRecord, {
      v0: (c) => c.version === 'V0',
      v1: (c) => c.version === 'V1',
      v1TopLevel: (c) => c.version === 'V1' && c.parent_conversation_id === null,
    }, this.#sink, budget);
    this.startTasks = new Table('start_task', StartTaskRecord, {}, this.#sink, budget);
  }

  /** Ids of the children of each conversation (`sub_conversation_ids`). */
  readonly childrenOf = new Map<string, string[]>();
  /** Stored git provider tokens, one record per provider: secrets, never returned by any endpoint. */
  readonly providerTokenRecords = new Collection({ schema: ProviderTokenRecord });
  /** Stored user-level MCP configuration (at most one record). */
  readonly mcpConfigRecords = new Collection({ schema: MCPConfigRecord });
  /** Id of the default sandbox spec. */
  defaultSandboxSpecId: string | null = null;

  /** The stored provider tokens, keyed by provider. */
  get providerTokens(): Partial<Record<ProviderType, ProviderToken>> {
    const tokens: Partial<Record<ProviderType, ProviderToken>> = {};
    for (const { provider, token, host, user_id } of this.providerTokenRecords.all()) tokens[provider] = { token, host, user_id };
    return tokens;
  }

  /** Replaces the stored provider tokens (each record validated by its schema). */
  async setProviderTokens(tokens: Partial<Record<ProviderType, ProviderToken>>): Promise<void> {
    this.providerTokenRecords.clear();
    for (const [provider, token] of Object.entries(tokens) as [ProviderType, ProviderToken][]) {
      await this.providerTokenRecords.create({ provider, token: token.token, host: token.host, user_id: token.user_id });
    }
    this.onChange({ entity: 'provider_tokens', action: 'replaced' });
  }

  /** The stored MCP configuration, or `null`. */
  get mcpConfig(): MCPConfig | null {
    return this.mcpConfigRecords.all()[0]?.config ?? null;
  }

  /** Replaces the stored MCP configuration. */
  async setMcpConfig(config: MCPConfig | null): Promise<void> {
    this.mcpConfigRecords.clear();
    if (config) await this.mcpConfigRecords.create({ config });
    this.onChange({ entity: 'mcp_config', action: 'replaced' });
  }

  /** Links a conversation to its parent (`sub_conversation_ids`). */
  linkChild(parentId: string, childId: string): void {
    const children = this.childrenOf.get(parentId) ?? [];
    children.push(childId);
    this.childrenOf.set(parentId, children);
  }

  /** Removes a conversation from its parent's children. */
  unlinkChild(parentId: string, childId: string): void {
    const siblings = this.childrenOf.get(parentId);
    if (siblings) this.childrenOf.set(parentId, siblings.filter((c) => c !== childId));
  }
}
