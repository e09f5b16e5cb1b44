/**
 * Secrets never leave the fake: what a secret reads as, and the one rule that masks every secret
 * in a value, whatever its JSON type and however deep it sits. A secret is found by where it sits
 * and, outside those places, by its name: a field named as a secret (`api_key`, `token`, ...),
 * every value of a secret map (`env`, `secrets`, `provider_tokens`); in an MCP server, every header
 * and environment value, its URL's userinfo, query and fragment values, the word after each flag of
 * its `args` and the value of `--flag=value` (redact-positions.ts); in any string a credential, a
 * URL's password or a secret query or fragment parameter (redact-text.ts). It is applied wherever a
 * record is written or shown: request echoes, 422 inputs, snapshots (`GET /_fakehands/state`), the
 * state file and its log, the settings answered, the journal's queries.
 */
import { maskArgs, maskUrl, unmaskedUrl } from './redact-positions.js';
import { REDACTED, redactText } from './redact-text.js';

export { maskUrl, REDACTED };

/**
 * Field names whose values are secrets wherever they appear, read without case, `_` or `-`:
 * `token`, `api_key`, `github_token`, `client_secret`, `accessToken`, `secret_key`, `private_key`,
 * `aws_secret_access_key`, `aws_access_key_id`, `Authorization`, `password`, `credentials`, `cookie`...
 */
const SECRET_FIELD =
  /(token|apikey|secret|secretkey|accesskey|accesskeyid|password|passwd|passphrase|privatekey|authorization|credential|credentials|cookie)$/;
/** A field name as `SECRET_FIELD` reads it. */
const fieldWord = (name: string) => name.toLowerCase().replace(/[_-]/g, '');
/** Objects whose every value is a secret (a stdio MCP server's environment, start-request secrets, provider tokens given as strings). */
const SECRET_MAPS = new Set(['env', 'provider_tokens', 'secrets']);
/** The lists of an MCP configuration's servers (`MCPConfig`: `sse_servers`, `shttp_servers`, `stdio_servers`). */
const SERVER_LIST = /^(sse|shttp|stdio)_servers$/;

/**
 * Where a value sits, which decides what of it is a secret: `plain` (by name, and free text),
 * `secret` (all of it), a map whose every value is a secret, a provider-token map, a command line,
 * an MCP configuration, its list or map of servers, one server, a server's `auth`, a URL.
 */
type Place = 'plain' | 'secret' | 'secretMap' | 'tokenMap' | 'args' | 'mcpConfig' | 'mcpServers' | 'mcpServer' | 'mcpAuth' | 'url';

const isMap = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Where the value under `key` sits, inside a value at `place` (`value`: the one under `key`). */
function childPlace(place: Place, key: string, value: unknown): Place {
  switch (place) {
    case 'secret':
    case 'secretMap':
      return 'secret';
    case 'tokenMap':
      return isMap(value) ? 'plain' : 'secret';
    case 'mcpServers':
      return 'mcpServer';
    case 'mcpConfig':
      if (key === 'mcpServers' || (SERVER_LIST.test(key) && Array.isArray(value))) return 'mcpServers';
      // A configuration by server name (the agent settings' `mcp_config`): each value is a server.
      if (isMap(value)) return 'mcpServer';
      break;
    case 'mcpServer':
      if (key === 'url') return 'url';
      if ((key === 'headers' || key === 'env') && isMap(value)) return 'secretMap';
      if (key === 'auth' && isMap(value)) return 'mcpAuth';
      break;
    case 'mcpAuth':
      if (key === 'value') return 'secret';
      if (key === 'headers' && isMap(value)) return 'secretMap';
      break;
    default:
  }
  if (isMap(value) && SECRET_MAPS.has(key)) return key === 'provider_tokens' ? 'tokenMap' : 'secretMap';
  if (key === 'args' && Array.isArray(value)) return 'args';
  if (key === 'mcp_config') return 'mcpConfig';
  if (key === 'mcpServers') return 'mcpServers';
  return isSecretField(key) ? 'secret' : 'plain';
}

/** Where each item of a list at `place` sits. */
const itemPlace = (place: Place): Place => (place === 'secret' ? 'secret' : place === 'mcpServers' ? 'mcpServer' : 'plain');

/** `value` at `place` with its secrets masked. */
function redactAtPlace(value: unknown, place: Place): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value !== 'object') {
    if (place === 'secret') return value === '' ? value : REDACTED;
    if (typeof value !== 'string') return value;
    // A server given as a bare URL string (`sse_servers: ["https://..."]`) is its URL.
    return place === 'url' || place === 'mcpServer' ? maskUrl(value) : redactText(value);
  }
  if (Array.isArray(value)) {
    if (place === 'args') return maskArgs(value, redactPlain);
    const inner = itemPlace(place);
    return value.map((item) => redactAtPlace(item, inner));
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactAtPlace(item, childPlace(place, key, item));
  return out;
}

/** A value outside any secret place, masked. */
const redactPlain = (value: unknown) => redactAtPlace(value, 'plain');

/**
 * A copy of `value` with secrets replaced by `REDACTED`: the values of secret-named fields (of
 * any JSON type), every value of a secret map, what sits in a secret place of an MCP configuration
 * (under `mcp_config` or `mcpServers`) or of a command line (`args`), and secrets in free text.
 * @example
 * redactSecrets({ url: 'https://mcp', api_key: 'sk-1' }) // { url: 'https://mcp', api_key: '**********' }
 */
export function redactSecrets(value: unknown, secret = false): unknown {
  return redactAtPlace(value, secret ? 'secret' : 'plain');
}

/**
 * An MCP configuration (`MCPConfig`'s server lists, or servers by name) with its secrets masked by
 * place: every header and environment value, `auth` values, keys, URL userinfo, query and fragment
 * values, and the values of flags in `args`.
 * @example
 * redactMcpConfig({ sse_servers: [{ url: 'https://h/sse?k=v', api_key: null }] }) // { sse_servers: [{ url: 'https://h/sse?k=**********', api_key: null }] }
 */
export function redactMcpConfig<T>(config: T): T {
  return redactAtPlace(config, 'mcpConfig') as T;
}

/**
 * The input of a 422 at `loc` (its first element says where: `body`, `query`...) with its secrets
 * masked as they would be in place; a map's `[key]` is a name, not a secret.
 * @example
 * redactAtLocation('sk-1', ['body', 'mcp_config', 'fs', 'headers', 'X-Auth']) // '**********'
 */
export function redactAtLocation(input: unknown, loc: readonly (string | number)[]): unknown {
  if (loc.at(-1) === '[key]') return redactPlain(input);
  let place: Place = 'plain';
  for (let i = 1; i < loc.length; i++) {
    const key = loc[i]!;
    // The value along the way: a list when the next step is an index, a map otherwise; the input at the end.
    const value = i === loc.length - 1 ? input : typeof loc[i + 1] === 'number' ? [] : {};
    place = typeof key === 'number' ? (place === 'args' ? 'plain' : itemPlace(place)) : childPlace(place, key, value);
  }
  return redactAtPlace(input, place);
}

/** Whether a field of this name holds a secret (`token`, `api_key`, ...). */
export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(fieldWord(name));
}

/** `given` at `place`, each masked part that reads as `stored` masked at the same place replaced by `stored`'s. */
function unmaskedAtPlace(given: unknown, stored: unknown, place: Place): unknown {
  if (typeof given === 'string') {
    if (!given.includes(REDACTED) || stored === null || stored === undefined || typeof stored === 'object') return given;
    // A URL is put back part by part: a query value the client changed is kept, the masked ones beside it restored.
    if ((place === 'url' || place === 'mcpServer') && typeof stored === 'string') return unmaskedUrl(given, stored);
    return given === redactAtPlace(stored, place) ? stored : given;
  }
  if (given === null || typeof given !== 'object' || stored === null || typeof stored !== 'object') return given;
  if (Array.isArray(given)) {
    if (!Array.isArray(stored)) return given;
    if (place === 'args') {
      // A word of a command line is masked by its neighbour: compared with the stored line masked whole.
      const masked = maskArgs(stored, redactPlain);
      return given.map((word, i) =>
        typeof word === 'string' && word.includes(REDACTED) && masked[i] === word ? stored[i] : unmaskedAtPlace(word, stored[i], 'plain'),
      );
    }
    const inner = itemPlace(place);
    return given.map((item, i) => unmaskedAtPlace(item, stored[i], inner));
  }
  if (Array.isArray(stored)) return given;
  const before = stored as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(given).map(([key, value]) => [key, unmaskedAtPlace(value, before[key], childPlace(place, key, value))]),
  );
}

/**
 * A value sent back from what was answered, with each masked secret that still reads as it was
 * answered replaced by the stored one at the same place: a GET → edit → POST round trip never
 * stores the mask, and a secret the client did change is the client's.
 * @example
 * unmaskedSecrets({ llm: { api_key: '**********' } }, { llm: { api_key: 'sk-1' } }) // { llm: { api_key: 'sk-1' } }
 */
export function unmaskedSecrets(given: unknown, stored: unknown): unknown {
  return unmaskedAtPlace(given, stored, 'plain');
}

/**
 * One MCP server sent back from what was answered (`url`, `api_key`, `headers`, `env`, `args`,
 * `auth`), its masked parts that read as the stored server's replaced by the stored ones.
 * @example
 * unmaskedMcpServer({ url: 'https://h?k=**********' }, { url: 'https://h?k=v' }) // { url: 'https://h?k=v' }
 */
export function unmaskedMcpServer<T>(given: T, stored: unknown): T {
  return unmaskedAtPlace(given, stored, 'mcpServer') as T;
}

/** A URL query (`?a=1&key=x`) with its secret parameters masked, for the journal. */
export function redactQuery(query: string): string {
  return redactText(query);
}
