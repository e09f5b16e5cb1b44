/** What a secret reads as in a snapshot, a state file or an error's `input`. */
export const REDACTED = '**********';

/** Field names whose values are secrets wherever they appear. */
const SECRET_FIELDS = /^(token|api_key|apikey|secret|password|session_api_key)$/i;
/** Objects whose every value is treated as a secret (a stdio MCP server's environment). */
const SECRET_MAPS = new Set(['env', 'provider_tokens']);

/**
 * A copy of `value` with secrets replaced by `REDACTED`: the values of secret-named fields, every
 * value of an `env` map, and token objects given as bare strings under `provider_tokens`.
 * @example
 * redactSecrets({ url: 'https://mcp', api_key: 'sk-1' }) // { url: 'https://mcp', api_key: '**********' }
 */
export function redactSecrets(value: unknown, secret = false): unknown {
  if (typeof value === 'string') return secret && value !== '' ? REDACTED : value;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, secret));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_MAPS.has(key) && item !== null && typeof item === 'object') {
      out[key] = Object.fromEntries(Object.entries(item).map(([k, v]) => [k, redactSecrets(v, key === 'env' || typeof v === 'string')]));
    } else {
      out[key] = redactSecrets(item, secret || SECRET_FIELDS.test(key));
    }
  }
  return out;
}

/** Whether a field of this name holds a secret (`token`, `api_key`, ...). */
export function isSecretField(name: string): boolean {
  return SECRET_FIELDS.test(name);
}

/** Whether every value of a map of this name is a secret (`env`, `provider_tokens`). */
export function isSecretMap(name: string): boolean {
  return SECRET_MAPS.has(name);
}
