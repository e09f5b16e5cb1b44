/**
 * The agent server's LLM provider connections (`/api/llm/provider-connections`,
 * openhands-agent-server `provider_connections_router.py`), its ChatGPT subscription sign-in
 * (`/api/llm/subscription/openai/*`, `llm_router.py`) and its desktop URL (`/api/desktop/url`,
 * `desktop_router.py`). Each route names the function it copies; the state is
 * `domain/agent-world/connections.ts`.
 */
import * as z from 'zod/mini';
import { agentSettings } from '../../domain/agent-world/settings.js';
import {
  createProviderConnection,
  deleteProviderConnection,
  listProviderConnections,
  logoutSubscription,
  OPENAI_SUBSCRIPTION_MODELS,
  pollSubscriptionLogin,
  startSubscriptionLogin,
  subscriptionStatus,
  updateProviderConnection,
} from '../../domain/agent-world/connections.js';
import { Refusal } from '../../domain/store/refusal.js';
import type { DomainState } from '../../domain/store/state.js';
import { defineRoute, type Route } from '../../http/route.js';
import { hostWide } from './host-wide.js';

const name128 = z.string().check(z.minLength(1), z.maxLength(128));
const baseUrl = z.nullable(z.string().check(z.maxLength(2048)));
/** `ProviderConnectionCreateRequest` (extra fields forbidden). */
const ProviderConnectionCreateRequest = z.strictObject({
  display_name: name128,
  provider: z._default(name128, 'custom'),
  api_key: z.string().check(z.minLength(1)),
  base_url: z.optional(baseUrl),
});
/** `ProviderConnectionUpdateRequest` (extra fields forbidden; `display_name` and `provider` may not be null). */
const ProviderConnectionUpdateRequest = z
  .strictObject({
    display_name: z.optional(z.nullable(name128)),
    provider: z.optional(z.nullable(name128)),
    api_key: z.optional(z.nullable(z.string())),
    base_url: z.optional(baseUrl),
  })
  .check(
    z.superRefine((body, ctx) => {
      for (const field of ['display_name', 'provider'] as const)
        if (body[field] === null) ctx.addIssue({ code: 'custom', message: `${field} cannot be set to null`, input: body });
    }),
  );
/** `ProviderConnectionResponse`. */
const ProviderConnectionResponse = z.object({
  id: z.string(),
  display_name: z.string(),
  provider: z.string(),
  base_url: z.nullable(z.string()),
  created_at: z.int(),
  updated_at: z.int(),
  api_key_set: z.boolean(),
});
const ConnectionParam = z.object({ connection_id: z.string() });
/** `SubscriptionStatusResponse`. */
const SubscriptionStatusResponse = z.object({
  vendor: z.string(),
  connected: z.boolean(),
  account_email: z.nullable(z.string()),
  expires_at: z.nullable(z.int()),
});

/** The LLM profiles and whether the active settings name connection `id` (what blocks its deletion). */
function references(state: DomainState, id: string) {
  const profiles = state.store.settings?.llm_profiles ?? {};
  const profileNames = Object.entries(profiles)
    .filter(([, llm]) => (llm as Record<string, unknown>).provider_connection_id === id)
    .map(([name]) => name);
  const llm = agentSettings(state).agent_settings.llm as Record<string, unknown> | undefined;
  return { profileNames, activeReference: llm?.provider_connection_id === id };
}

/** The provider-connection, subscription and desktop routes. */
export const connectionRoutes: readonly Route[] = hostWide([
  defineRoute({
    method: 'GET',
    path: '/api/llm/provider-connections',
    summary: 'The saved provider connections, keys never answered (provider_connections_router.py, list_provider_connections)',
    response: z.array(ProviderConnectionResponse),
    handle: (_input, context) => context.runner.run(listProviderConnections),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/llm/provider-connections',
    summary: 'Save a provider connection; 409 past 64 (provider_connections_router.py, create_provider_connection)',
    successStatus: 201,
    body: ProviderConnectionCreateRequest,
    response: ProviderConnectionResponse,
    errors: [409],
    handle: ({ body }, context) => context.runner.run(createProviderConnection, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/llm/provider-connections/:connection_id',
    summary: 'Change the fields sent of a provider connection (provider_connections_router.py, update_provider_connection)',
    params: ConnectionParam,
    body: ProviderConnectionUpdateRequest,
    response: ProviderConnectionResponse,
    errors: [404],
    handle: ({ params, body }, context) => context.runner.run(updateProviderConnection, params.connection_id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/llm/provider-connections/:connection_id',
    summary: 'Delete a provider connection nothing names (provider_connections_router.py, delete_provider_connection)',
    params: ConnectionParam,
    response: ProviderConnectionResponse,
    errors: [404, 409],
    handle: ({ params }, context) =>
      context.runner.run((state) => deleteProviderConnection(state, params.connection_id, references(state, params.connection_id))),
  }),
  // ── The ChatGPT subscription ──
  defineRoute({
    method: 'GET',
    path: '/api/llm/subscription/openai/models',
    summary: 'The models a ChatGPT subscription offers (llm_router.py, list_openai_subscription_models)',
    response: z.object({ vendor: z.string(), models: z.array(z.string()) }),
    handle: async () => ({ vendor: 'openai', models: [...OPENAI_SUBSCRIPTION_MODELS] }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/llm/subscription/openai/status',
    summary: 'Whether a ChatGPT subscription is signed in, without tokens (llm_router.py, get_openai_subscription_status)',
    response: SubscriptionStatusResponse,
    handle: (_input, context) => context.runner.run(subscriptionStatus),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/llm/subscription/openai/device/start',
    summary: 'Start a device-code sign-in (llm_router.py, start_openai_subscription_device_login)',
    response: z.object({
      device_code: z.string(),
      user_code: z.string(),
      verification_uri: z.string(),
      verification_uri_complete: z.nullable(z.string()),
      expires_at: z.int(),
      interval_seconds: z.int(),
    }),
    handle: (_input, context) => context.runner.run(startSubscriptionLogin),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/llm/subscription/openai/device/poll',
    summary: 'Poll a device-code sign-in; 404 for an unknown one (llm_router.py, poll_openai_subscription_device_login)',
    body: z.object({ device_code: z.string() }),
    response: SubscriptionStatusResponse,
    errors: [404],
    handle: ({ body }, context) => context.runner.run(pollSubscriptionLogin, body.device_code),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/llm/subscription/openai/logout',
    summary: 'Forget the subscription credentials (llm_router.py, logout_openai_subscription)',
    response: SubscriptionStatusResponse,
    handle: (_input, context) => context.runner.run(logoutSubscription),
  }),
  // ── The desktop ──
  defineRoute({
    method: 'GET',
    path: '/api/desktop/url',
    summary: 'The noVNC URL: 503, the desktop is off as in the default config (desktop_router.py, get_desktop_url)',
    query: z.object({ base_url: z._default(z.string(), 'http://localhost:8002') }),
    response: z.object({ url: z.nullable(z.string()) }),
    errors: [503],
    handle: async () => {
      const detail = 'Desktop is disabled in configuration. Set enable_vnc=true to enable.';
      // A 503 of the server's own (its body a FastAPI `detail`), not a sandbox that is down.
      return new Refusal('unavailable', detail, { body: { detail } });
    },
  }),
]);
