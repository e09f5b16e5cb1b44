/**
 * The user's custom secrets and provider tokens, as both generations manage them. Legacy: openhands
 * `server/routes/secrets.py` (`load_custom_secrets_names`, `create_custom_secret`: 201, 400
 * `{"message": "Secret X already exists"}`; `update_custom_secret`: a rename keeps the value, 404
 * `{"error": "Secret with ID X not found"}`; `delete_custom_secret`; `unset_provider_tokens`).
 * Newest: `/api/v1/secrets` (search by name, paged; `EditResponse`) and `/api/v1/secrets/git-providers`.
 */
import type { CustomSecretRecord } from '../../schemas/user-secrets.js';
import { Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { setProviderTokens } from '../store/user-records.js';

/** How many custom secrets the fake keeps; past it a create is refused (507). */
export const MAX_CUSTOM_SECRETS = 500;

const listed = (secret: CustomSecretRecord) => ({ name: secret.name, description: secret.description });
const exists = (name: string) =>
  new Refusal('bad_request', `Secret ${name} already exists`, { body: { message: `Secret ${name} already exists` } });
const missing = (id: string) =>
  new Refusal('not_found', `Secret with ID ${id} not found`, { body: { error: `Secret with ID ${id} not found` } });

/** `GET /api/secrets`: names and descriptions. */
export function listCustomSecrets(state: DomainState) {
  return { custom_secrets: state.store.customSecrets.map(listed) };
}

/** `GET /api/v1/secrets/search`: names containing `name__contains`, in name order, a page from `page_id` (a name). */
export function searchCustomSecrets(
  state: DomainState,
  query: { name__contains?: string | undefined; page_id?: string | undefined; limit: number },
) {
  const all = [...state.store.customSecrets]
    .filter((s) => !query.name__contains || s.name.toLowerCase().includes(query.name__contains.toLowerCase()))
    .sort((a, b) => a.name.localeCompare(b.name));
  const start = query.page_id
    ? Math.max(
        0,
        all.findIndex((s) => s.name === query.page_id),
      )
    : 0;
  return { items: all.slice(start, start + query.limit).map(listed), next_page_id: all[start + query.limit]?.name ?? null };
}

/** `POST /api/secrets`, `POST /api/v1/secrets`: a new secret; 400 when the name is taken. */
export async function createCustomSecret(
  state: DomainState,
  secret: { name: string; value: string; description: string | null },
): Promise<{ message: string } | Refusal> {
  const secrets = state.store.customSecrets;
  if (secrets.some((s) => s.name === secret.name)) return exists(secret.name);
  if (secrets.length >= MAX_CUSTOM_SECRETS)
    return new Refusal('storage_full', `Insufficient Storage: the fake keeps at most ${MAX_CUSTOM_SECRETS} custom secrets`);
  await state.store.setCustomSecrets([...secrets, { name: secret.name, description: secret.description, value: secret.value }]);
  return { message: 'Secret created successfully' };
}

/** `PUT /api/secrets/{id}`, `PUT /api/v1/secrets/{id}`: a new name and description; the value stays. */
export async function updateCustomSecret(
  state: DomainState,
  id: string,
  change: { name: string; description: string | null },
): Promise<{ message: string } | Refusal> {
  const secrets = state.store.customSecrets;
  const current = secrets.find((s) => s.name === id);
  if (!current) return missing(id);
  if (change.name !== id && secrets.some((s) => s.name === change.name)) return exists(change.name);
  await state.store.setCustomSecrets(
    secrets.map((s) => (s.name === id ? { name: change.name, description: change.description, value: s.value } : s)),
  );
  return { message: 'Secret updated successfully' };
}

/** `DELETE /api/secrets/{id}`, `DELETE /api/v1/secrets/{id}`. */
export async function deleteCustomSecret(state: DomainState, id: string): Promise<{ message: string } | Refusal> {
  const secrets = state.store.customSecrets;
  if (!secrets.some((s) => s.name === id)) return missing(id);
  await state.store.setCustomSecrets(secrets.filter((s) => s.name !== id));
  return { message: 'Secret deleted successfully' };
}

/** `POST /api/unset-provider-tokens`, `DELETE /api/v1/secrets/git-providers`: every provider token is gone. */
export async function unsetProviderTokens(state: DomainState): Promise<{ message: string }> {
  await setProviderTokens(state.store, {});
  return { message: 'Unset Git provider tokens' };
}

export { customSecret } from './custom-secret.js';
