/**
 * The user's git provider tokens and MCP configuration as @msw/data collections (one record per
 * provider; at most one configuration record), each record checked by its schema. A store keeps a
 * fixture's values as loaded until the first write makes the collections; only the operations
 * that write them import this module (`POST /api/add-git-providers`, unsetting the tokens), so a
 * page whose fake never stores either never downloads @msw/data (issue 23, issue 30).
 */
import { Collection } from './msw-data.js';
import type { ProviderType } from '../../schemas/common.js';
import type { ProviderToken } from '../../schemas/legacy.js';
import type { MCPConfig } from '../../schemas/mcp.js';
import { MCPConfigRecord, ProviderTokenRecord } from '../../schemas/records.js';
import type { ProviderTokens, Store } from './store.js';

export type { ProviderTokens } from './store.js';

/** The two collections of one store. */
export class UserRecords {
  readonly #tokens = new Collection({ schema: ProviderTokenRecord });
  readonly #mcp = new Collection({ schema: MCPConfigRecord });

  /** The stored tokens, keyed by provider. */
  providerTokens(): ProviderTokens {
    const tokens: ProviderTokens = {};
    for (const { provider, token, host, user_id } of this.#tokens.all()) tokens[provider] = { token, host, user_id };
    return tokens;
  }

  /** The stored MCP configuration, or `null`. */
  mcpConfig(): MCPConfig | null {
    return this.#mcp.all()[0]?.config ?? null;
  }

  /** Holds exactly `tokens`. */
  async replaceProviderTokens(tokens: ProviderTokens): Promise<void> {
    this.#tokens.clear();
    for (const [provider, token] of Object.entries(tokens) as [ProviderType, ProviderToken][]) {
      await this.#tokens.create({ provider, token: token.token, host: token.host, user_id: token.user_id });
    }
  }

  /** Holds exactly `config` (none for `null`). */
  async replaceMcpConfig(config: MCPConfig | null): Promise<void> {
    this.#mcp.clear();
    if (config) await this.#mcp.create({ config });
  }
}

/** The store's collections, made (with what it holds so far) on the first write. */
async function recordsOf(store: Store): Promise<UserRecords> {
  const existing = store.userRecords;
  if (existing instanceof UserRecords) return existing;
  const records = new UserRecords();
  await records.replaceProviderTokens(store.providerTokens);
  await records.replaceMcpConfig(store.mcpConfig);
  store.userRecords = records;
  return records;
}

/**
 * Replaces the stored provider tokens (undone with the operation's transaction; a change announced).
 * @example
 * await setProviderTokens(state.store, { github: { token: 'ghp_x', host: null, user_id: null } })
 */
export async function setProviderTokens(store: Store, tokens: ProviderTokens): Promise<void> {
  const records = await recordsOf(store);
  const previous = records.providerTokens();
  store.recordUndo(() => records.replaceProviderTokens(previous));
  await records.replaceProviderTokens(tokens);
  store.onChange({ entity: 'provider_tokens', action: 'replaced' });
}

/**
 * Replaces the stored MCP configuration (undone with the operation's transaction; a change announced).
 * @example
 * await setMcpConfig(state.store, null)
 */
export async function setMcpConfig(store: Store, config: MCPConfig | null): Promise<void> {
  const records = await recordsOf(store);
  const previous = records.mcpConfig();
  store.recordUndo(() => records.replaceMcpConfig(previous));
  await records.replaceMcpConfig(config);
  store.onChange({ entity: 'mcp_config', action: 'replaced' });
}
