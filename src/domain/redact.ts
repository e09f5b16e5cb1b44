/**
 * Secrets never leave the fake: what a secret reads as, and the one function that masks every
 * secret in a value (in request echoes, snapshots, the state file and 422 inputs), whatever its
 * JSON type and however deep it sits.
 */

/** What a secret reads as in a snapshot, a state file, an echo or an error's `input`. */
export const REDACTED = '**********';

/** Field names whose values are secrets wherever they appear (`token`, `api_key`, `decrypted_api_key`, `github_token`, `client_secret`, ...). */
const SECRET_FIELDS = /(^|_)(token|api_?key|apikey|secret|password)$/i;
/** Objects whose every value is a secret (a stdio MCP server's environment, start-request secrets, provider tokens given as strings). */
const SECRET_MAPS = new Set(['env', 'provider_tokens', 'secrets']);
/** Command-line words that are, or announce, a secret (`--token`, `API_KEY=...`). */
const SECRET_WORD = /(token|api[_-]?key|secret|password)/i;

/** A stdio server's arguments with secrets masked: the word after a secret flag (`--token X`), the value of a secret assignment (`--api-key=X`, `API_KEY=X`). */
function redactArgs(args: unknown[]): unknown[] {
  return args.map((arg, i) => {
    if (typeof arg !== 'string') return redactSecrets(arg);
    const previous = args[i - 1];
    if (typeof previous === 'string' && /^--?[\w-]+$/.test(previous) && SECRET_WORD.test(previous)) return REDACTED;
    const assignment = /^([\w-]+=)(.+)$/.exec(arg.replace(/^--?/, (dashes) => dashes));
    if (assignment && SECRET_WORD.test(assignment[1]!)) return `${arg.slice(0, arg.indexOf('=') + 1)}${REDACTED}`;
    return arg;
  });
}

/**
 * A copy of `value` with secrets replaced by `REDACTED`: the values of secret-named fields (of
 * any JSON type), every value of a secret map, and secret words in a stdio server's `args`.
 * @example
 * redactSecrets({ url: 'https://mcp', api_key: 'sk-1' }) // { url: 'https://mcp', api_key: '**********' }
 */
export function redactSecrets(value: unknown, secret = false): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value !== 'object') return secret && value !== '' ? REDACTED : value;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, secret));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_MAPS.has(key) && item !== null && typeof item === 'object' && !Array.isArray(item)) {
      out[key] = Object.fromEntries(Object.entries(item).map(([k, v]) => [k, redactSecrets(v, key !== 'provider_tokens' || typeof v !== 'object' || v === null)]));
    } else if (key === 'args' && Array.isArray(item)) {
      out[key] = redactArgs(item);
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

/** Whether every value of a map of this name is a secret (`env`, `provider_tokens`, `secrets`). */
export function isSecretMap(name: string): boolean {
  return SECRET_MAPS.has(name);
}
