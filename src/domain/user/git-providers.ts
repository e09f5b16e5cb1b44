/**
 * Git provider tokens and the user's MCP configuration (`POST /api/add-git-providers`).
 * Tokens are secrets: stored, merged, never returned by any endpoint.
 */
import type { ProviderType } from '../../schemas/common.js';
import type { POSTProviderModel, ProviderToken } from '../../schemas/legacy.js';
import type { DomainState } from '../store/state.js';
import { setMcpConfig, setProviderTokens } from '../store/user-records.js';

/** What `POST /api/add-git-providers` answers. */
export type GitProvidersStored = { message: 'Git providers stored' };

/** Merges provider tokens (an empty token keeps the stored one but takes the new host) and stores the MCP config. */
export async function storeGitProviders(state: DomainState, request: POSTProviderModel): Promise<GitProvidersStored> {
  const { store } = state;
  const incoming = request.provider_tokens;
  if (Object.keys(incoming).length > 0) {
    const merged: Partial<Record<ProviderType, ProviderToken>> = {};
    for (const [provider, token] of Object.entries(incoming) as [ProviderType, ProviderToken][]) {
      const stored = store.providerTokens[provider];
      merged[provider] = !token.token && stored?.token ? { ...stored, host: token.host } : { ...token };
    }
    await setProviderTokens(store, merged);
  }
  if (request.mcp_config) await setMcpConfig(store, request.mcp_config);
  return { message: 'Git providers stored' };
}
