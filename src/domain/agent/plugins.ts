/**
 * A plugin loaded into a running conversation from the marketplaces its agent context registers
 * (`POST /api/conversations/{id}/load_plugin`). Copies openhands-sdk's `local_conversation.py`
 * (`load_plugin`, `_marketplace_registry_from_context`) and `marketplace/registry.py`
 * (`resolve_plugin`, `_parse_plugin_ref`, and the messages of `PluginNotFoundError`,
 * `MarketplaceNotFoundError`, `AmbiguousPluginError`). The fake fetches nothing: every registered
 * marketplace holds the fake's catalogue (`GET /api/plugins/marketplace`), and loading changes
 * nothing the agent server reports (the real one adds the plugin's skills to the agent's context).
 */
import type { StartConversationRequest } from '../../schemas/agent-conversations.js';
import type { ConversationRecord } from '../../schemas/records.js';
import { PLUGINS } from '../agent-world/catalogues.js';
import { badRequest, refuse, type Refusal } from '../store/refusal.js';

/** The names of the plugin marketplaces a start request's agent context registers; `null` without an agent context. */
export function registeredMarketplaces(request: StartConversationRequest): string[] | null {
  const context = (request.agent ?? request.agent_settings)?.agent_context as { registered_marketplaces?: unknown } | null | undefined;
  if (!context) return null;
  const registered = Array.isArray(context.registered_marketplaces) ? (context.registered_marketplaces as unknown[]) : [];
  return registered.flatMap((r) => {
    const name = (r as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? [name] : [];
  });
}

/** `_parse_plugin_ref`: `name` or `name@marketplace`; 400 for an empty or half reference. */
function parseRef(ref: string): { plugin: string; marketplace: string | null } | Refusal {
  const at = ref.lastIndexOf('@');
  if (at < 0) return ref ? { plugin: ref, marketplace: null } : badRequest('Plugin reference must not be empty');
  const plugin = ref.slice(0, at);
  const marketplace = ref.slice(at + 1);
  if (!plugin || !marketplace) return badRequest("Plugin reference must use 'plugin-name@marketplace-name'");
  return { plugin, marketplace };
}

/**
 * `load_plugin`: 400 without an agent context or a registered marketplace, for a bad reference or
 * a name several marketplaces hold; 404 for a marketplace not registered or a plugin none holds.
 */
export function loadPlugin(conversation: ConversationRecord, ref: string): Refusal | null {
  const registered = conversation.agent_host ? conversation.agent_host.marketplaces : [];
  if (registered === null)
    return badRequest('No agent context available. Configure agent_context with registered_marketplaces to use load_plugin().');
  if (registered.length === 0)
    return badRequest('No marketplaces registered. Configure registered_marketplaces in AgentContext to use load_plugin().');
  const parsed = parseRef(ref);
  if ('reason' in parsed) return parsed;
  const known = PLUGINS.some((p) => p.name === parsed.plugin);
  if (parsed.marketplace !== null) {
    if (!registered.includes(parsed.marketplace)) return refuse('not_found', `Marketplace '${parsed.marketplace}' is not registered`);
    if (!known) return refuse('not_found', `Plugin '${parsed.plugin}' not found in marketplace '${parsed.marketplace}'`);
  } else {
    if (!known) return refuse('not_found', `Plugin '${parsed.plugin}' not found in any registered marketplace`);
    if (registered.length > 1)
      return badRequest(
        `Plugin '${parsed.plugin}' is ambiguous; found in multiple marketplaces: ${registered.join(', ')}. Use '${parsed.plugin}@<marketplace-name>'.`,
      );
  }
  return null;
}
