/**
 * The agent server's LLM provider connections and its ChatGPT subscription sign-in.
 *
 * A provider connection is a shared key (and base URL) that LLM profiles name by id: listed,
 * created (64 at most), patched, and deleted unless a profile or the active settings still name it
 * (openhands-agent-server `provider_connections_router.py`; `MAX_PROVIDER_CONNECTIONS` in
 * openhands-sdk `llm/provider_connection_store.py`). The key goes in and is never answered:
 * `api_key_set` says whether one is kept.
 *
 * The subscription sign-in is a device-code login (`llm_router.py`,
 * `start_openai_subscription_device_login`, `poll_openai_subscription_device_login`,
 * `logout_openai_subscription`): `start` hands out an opaque polling token and a user code; the
 * fake's user enters the code once one polling interval has passed on the fake's clock, so a poll
 * before then answers "not connected" and keeps the login pending, one after it connects. Logout
 * forgets the credentials and every pending login. No token is ever answered.
 *
 * The connections (their keys) and the subscription's credentials are the agent world's
 * (`world.ts`: a record of the store, kept by the state file with every key masked), as the real
 * server keeps them on disk. The pending device logins stay in memory, per state (a WeakMap: a
 * reset or a tenant starts afresh): the real server holds them in a module-level dict
 * (`_PENDING_OPENAI_DEVICE_LOGINS`), so a restart forgets them there too.
 */
import { toBase64 } from '../agent/base64.js';
import { Refusal, refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import type { ProviderConnectionRecord } from '../../schemas/agent-world.js';
import { changeWorld, worldRecordOf } from './world.js';

/** Most provider connections a user keeps (`MAX_PROVIDER_CONNECTIONS`). */
export const MAX_PROVIDER_CONNECTIONS = 64;
/** How long a device login may wait for its user (`DEVICE_CODE_TIMEOUT_SECONDS`), in ms. */
export const DEVICE_CODE_TIMEOUT_MS = 900_000;
/** The polling interval the fake's device login asks for, in seconds (the SDK's default). */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** How long the fake's subscription credentials last once signed in (an hour, the SDK's `expires_in` default), in ms. */
const CREDENTIALS_LIFETIME_MS = 3_600_000;
/** Where the user enters the code (`ISSUER` + `/codex/device` in openhands-sdk `llm/auth/openai.py`). */
export const DEVICE_VERIFICATION_URI = 'https://auth.openai.com/codex/device';
/** The models a ChatGPT subscription offers (`_CODEX_MODELS`, openhands-sdk `settings/acp_providers.py`), sorted. */
export const OPENAI_SUBSCRIPTION_MODELS: readonly string[] = Object.freeze(
  ['gpt-5.6', 'gpt-5.6-sol', 'gpt-5.6-terra', 'gpt-5.6-luna', 'gpt-5.5', 'gpt-5.4', 'gpt-5.4-mini'].sort(),
);

/** A stored provider connection (`ProviderConnection`); `api_key` never leaves the module. */
type StoredConnection = ProviderConnectionRecord;

/** `ProviderConnectionResponse`. */
export interface ProviderConnectionResponse {
  id: string;
  display_name: string;
  provider: string;
  base_url: string | null;
  created_at: number;
  updated_at: number;
  api_key_set: boolean;
}

/** `ProviderConnectionCreateRequest`, as validated. */
export interface ProviderConnectionCreate {
  display_name: string;
  provider: string;
  api_key: string;
  base_url?: string | null | undefined;
}

/** `ProviderConnectionUpdateRequest`, as validated: only the fields sent are present. */
export interface ProviderConnectionUpdate {
  display_name?: string | null | undefined;
  provider?: string | null | undefined;
  api_key?: string | null | undefined;
  base_url?: string | null | undefined;
}

/** `SubscriptionStatusResponse`. */
export interface SubscriptionStatus {
  vendor: 'openai';
  connected: boolean;
  account_email: string | null;
  expires_at: number | null;
}

/** `SubscriptionDeviceStartResponse`. */
export interface SubscriptionDeviceStart {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string | null;
  expires_at: number;
  interval_seconds: number;
}

interface PendingLogin {
  startedAt: number;
  expiresAt: number;
}

/** The pending device logins of each state, by polling token. */
const logins = new WeakMap<DomainState, Map<string, PendingLogin>>();

function pendingOf(state: DomainState): Map<string, PendingLogin> {
  let pending = logins.get(state);
  if (!pending) logins.set(state, (pending = new Map()));
  return pending;
}

/** The stored connections, oldest first (never changed in place: `changeWorld` replaces them). */
const connectionsOf = (state: DomainState): readonly StoredConnection[] => worldRecordOf(state).provider_connections;

const nowSeconds = (state: DomainState) => Math.floor(state.clock.now() / 1000);
const answer = (c: StoredConnection, keySet = c.api_key !== ''): ProviderConnectionResponse => ({
  id: c.id,
  display_name: c.display_name,
  provider: c.provider,
  base_url: c.base_url,
  created_at: c.created_at,
  updated_at: c.updated_at,
  api_key_set: keySet,
});
const notFound = (id: string) => refuse('not_found', `Provider connection '${id}' not found`);
/** A 422 whose `detail` is a sentence (an `HTTPException`), not pydantic's list. */
const unprocessable = (detail: string) => new Refusal('invalid', detail, { body: { detail } });

/** Whether a provider connection with `id` exists (a profile naming a missing one is "broken"). */
export function providerConnectionExists(state: DomainState, id: string): boolean {
  return connectionsOf(state).some((c) => c.id === id);
}

/** `GET /api/llm/provider-connections` (list_provider_connections). */
export function listProviderConnections(state: DomainState): ProviderConnectionResponse[] {
  return connectionsOf(state).map((c) => answer(c));
}

/** `POST /api/llm/provider-connections` (create_provider_connection): 409 past the limit. */
export function createProviderConnection(state: DomainState, body: ProviderConnectionCreate): ProviderConnectionResponse | Refusal {
  const connections = connectionsOf(state);
  if (connections.length >= MAX_PROVIDER_CONNECTIONS)
    return refuse('conflict', `Provider connection limit reached (${MAX_PROVIDER_CONNECTIONS}). Delete one before adding another.`);
  const now = nowSeconds(state);
  const connection: StoredConnection = {
    id: state.random.uuid().replaceAll('-', ''),
    display_name: body.display_name,
    provider: body.provider,
    api_key: body.api_key,
    base_url: body.base_url ?? null,
    created_at: now,
    updated_at: now,
  };
  changeWorld(state, { provider_connections: [...connections, connection] });
  return answer(connection);
}

/** `PATCH /api/llm/provider-connections/{id}` (update_provider_connection): only the fields sent change. */
export function updateProviderConnection(
  state: DomainState,
  id: string,
  body: ProviderConnectionUpdate,
): ProviderConnectionResponse | Refusal {
  const fields = Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined);
  if (fields.length === 0) return unprocessable('Provide at least one provider connection field to update');
  const connections = connectionsOf(state);
  const stored = connections.find((c) => c.id === id);
  if (!stored) return notFound(id);
  if ('api_key' in body && body.api_key === null) return unprocessable('api_key cannot be cleared; provide a new key to rotate it');
  const connection: StoredConnection = { ...stored, updated_at: nowSeconds(state) };
  if (typeof body.display_name === 'string') connection.display_name = body.display_name;
  if (typeof body.provider === 'string') connection.provider = body.provider;
  if (body.base_url !== undefined) connection.base_url = body.base_url;
  if (typeof body.api_key === 'string') connection.api_key = body.api_key;
  changeWorld(state, { provider_connections: connections.map((c) => (c === stored ? connection : c)) });
  return answer(connection);
}

/**
 * `DELETE /api/llm/provider-connections/{id}` (delete_provider_connection): 409 while LLM profiles
 * (`profileNames`, sorted) or the active settings (`activeReference`) name it; answers the deleted
 * connection with `api_key_set: false`.
 */
export function deleteProviderConnection(
  state: DomainState,
  id: string,
  references: { profileNames: readonly string[]; activeReference: boolean },
): ProviderConnectionResponse | Refusal {
  const connections = connectionsOf(state);
  const connection = connections.find((c) => c.id === id);
  if (!connection) return notFound(id);
  const reasons: string[] = [];
  if (references.profileNames.length > 0) reasons.push(`referenced by LLM profile(s): ${[...references.profileNames].sort().join(', ')}`);
  if (references.activeReference) reasons.push('referenced by the active agent settings');
  if (reasons.length > 0)
    return refuse(
      'conflict',
      `Provider connection cannot be deleted while it is ${reasons.join(' and ')}. Update those references before deleting it.`,
    );
  changeWorld(state, { provider_connections: connections.filter((c) => c !== connection) });
  return answer(connection, false);
}

// ── The ChatGPT subscription ──

const status = (connected: boolean, expiresAt: number | null = null): SubscriptionStatus => ({
  vendor: 'openai',
  connected,
  account_email: null,
  expires_at: expiresAt,
});

/** Forgets the device logins whose time is up (`_drop_expired_device_logins`). */
function dropExpired(state: DomainState): void {
  const now = state.clock.now();
  const pending = pendingOf(state);
  for (const [token, login] of pending) if (login.expiresAt <= now) pending.delete(token);
}

/** `GET /api/llm/subscription/openai/status` (get_openai_subscription_status): connected while unexpired credentials are kept. */
export function subscriptionStatus(state: DomainState): SubscriptionStatus {
  const expiresAt = worldRecordOf(state).subscription_expires_at;
  return expiresAt !== null && expiresAt > state.clock.now() ? status(true, expiresAt) : status(false);
}

/** `POST /api/llm/subscription/openai/device/start` (start_openai_subscription_device_login). */
export function startSubscriptionLogin(state: DomainState): SubscriptionDeviceStart {
  dropExpired(state);
  const now = state.clock.now();
  // An opaque token (`secrets.token_urlsafe(32)`: 43 URL-safe characters) and a code the user types.
  const hex = (state.random.uuid() + state.random.uuid()).replaceAll('-', '');
  const bytes = Uint8Array.from({ length: hex.length / 2 }, (_, i) => Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16));
  // base64url without padding, as in a browser worker too (no Buffer there).
  const token = toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '').slice(0, 43);
  const letters = state.random
    .uuid()
    .replaceAll('-', '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
  const login: PendingLogin = { startedAt: now, expiresAt: now + DEVICE_CODE_TIMEOUT_MS };
  pendingOf(state).set(token, login);
  return {
    device_code: token,
    user_code: `${letters.slice(0, 4)}-${letters.slice(4, 9)}`,
    verification_uri: DEVICE_VERIFICATION_URI,
    verification_uri_complete: null,
    expires_at: login.expiresAt,
    interval_seconds: DEVICE_POLL_INTERVAL_SECONDS,
  };
}

/**
 * `POST /api/llm/subscription/openai/device/poll` (poll_openai_subscription_device_login): 404 for
 * an unknown or expired token; "not connected" while the user has not entered the code yet (the
 * login stays pending); connected, the login used up, once they have.
 */
export function pollSubscriptionLogin(state: DomainState, deviceCode: string): SubscriptionStatus | Refusal {
  dropExpired(state);
  const pending = pendingOf(state);
  const login = pending.get(deviceCode);
  if (!login) return refuse('not_found', 'Subscription device login not found or expired');
  const now = state.clock.now();
  if (now < login.startedAt + DEVICE_POLL_INTERVAL_SECONDS * 1000) return status(false);
  pending.delete(deviceCode);
  const expiresAt = now + CREDENTIALS_LIFETIME_MS;
  changeWorld(state, { subscription_expires_at: expiresAt });
  return status(true, expiresAt);
}

/** `POST /api/llm/subscription/openai/logout` (logout_openai_subscription): forgets the credentials and every pending login. */
export function logoutSubscription(state: DomainState): SubscriptionStatus {
  pendingOf(state).clear();
  if (worldRecordOf(state).subscription_expires_at !== null) changeWorld(state, { subscription_expires_at: null });
  return status(false);
}
