/**
 * Secrets never leave the fake: what a secret reads as, and the one rule that masks every secret
 * in a value, whatever its JSON type and however deep it sits — a field named as a secret
 * (`api_key`, `token`, ...), every value of a secret map (`env`, `secrets`, `provider_tokens`), a
 * secret flag's word in `args`, and in any string a credential, a URL's password or a secret query
 * parameter (`?key=`). It is applied wherever a record is written or shown: request echoes, 422
 * inputs, snapshots (`GET /_fakehands/state`), the state file and its log, the settings answered,
 * the journal's queries.
 */

/** What a secret reads as in a snapshot, a state file, an echo or an error's `input`. */
export const REDACTED = '**********';

/**
 * Field names whose values are secrets wherever they appear, read without case, `_` or `-`:
 * `token`, `api_key`, `github_token`, `client_secret`, `accessToken`, `secret_key`, `private_key`,
 * `aws_secret_access_key`, `aws_access_key_id`, `Authorization`, `password`, `credentials`, `cookie`...
 */
const SECRET_FIELD =
  /(token|apikey|secret|secretkey|accesskey|accesskeyid|password|passwd|passphrase|privatekey|authorization|credential|credentials|cookie)$/;
/** A field name as `SECRET_FIELD` reads it. */
const fieldWord = (name: string) => name.toLowerCase().replace(/[_-]/g, '');
/**
 * A header line whose value is a secret (`Authorization: Bearer x`, `X-Api-Key: x`, `Cookie: x`).
 * Every run before and after a word is bounded (a header name is short): an unbounded `[\w-]*`
 * around an alternation backtracks quadratically on a long run of such words ("tokentoken...": 1.6 s
 * at 60,000 characters), in every place that masks text, unauthenticated 422 bodies included.
 */
const SECRET_HEADER = /^\s*([\w-]{0,64}(?:authorization|api-?key|token|secret|cookie)[\w-]{0,64})\s*:\s*(\S.*)$/i;
/** A credential scheme and its value (`Bearer x`, `Basic x`, `token x`). */
const CREDENTIAL = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{4,}/g;
/** Userinfo in a URL (`https://user:pass@host`): a scheme of at most 32 characters (an unbounded one rescanned each run of "a+a+...": 4 s at 60,000 characters), a user and password of at most 1,024. */
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s/:@]{0,1024}:)[^\s/@]{1,1024}@/gi;
/** A secret query parameter in a URL (`?api_key=x`, `&token=x`, `?key=x`, `&sig=x`). */
const URL_SECRET_PARAM = /([?&](?:[\w-]{0,64}(?:token|key|secret|passw(?:or)?d|auth|credential|signature|sig)[\w-]{0,64})=)[^&#\s]+/gi;
/** Objects whose every value is a secret (a stdio MCP server's environment, start-request secrets, provider tokens given as strings). */
const SECRET_MAPS = new Set(['env', 'provider_tokens', 'secrets']);
/** Command-line words that are, or announce, a secret (`--token`, `--pat`, `API_KEY=...`, `--header`). */
const SECRET_WORD = /(token|api[_-]?key|secret|password|passwd|^--?pat$|credential|auth)/i;

/**
 * Secrets inside a free-text string: a credential after a scheme (`Bearer x`), the password of a
 * URL, a secret query parameter, the value of a secret header line.
 */
function redactText(text: string): string {
  if (text.length > 65_536) return text;
  const header = SECRET_HEADER.exec(text);
  if (header) return `${text.slice(0, text.indexOf(':') + 1)} ${REDACTED}`;
  return text
    .replace(CREDENTIAL, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(URL_USERINFO, (_m, before: string) => `${before}${REDACTED}@`)
    .replace(URL_SECRET_PARAM, (_m, name: string) => `${name}${REDACTED}`);
}

/** A stdio server's arguments with secrets masked: the word after a secret flag (`--token X`), the value of a secret assignment (`--api-key=X`, `API_KEY=X`). */
function redactArgs(args: unknown[]): unknown[] {
  return args.map((arg, i) => {
    if (typeof arg !== 'string') return redactSecrets(arg);
    const previous = args[i - 1];
    if (typeof previous === 'string' && /^--?[\w-]+$/.test(previous) && (SECRET_WORD.test(previous) || /^--?(H|header)$/i.test(previous))) {
      return SECRET_HEADER.test(arg) || !/^--?(H|header)$/i.test(previous) ? (SECRET_HEADER.test(arg) ? redactText(arg) : REDACTED) : arg;
    }
    const assignment = /^([\w-]+=)(.+)$/.exec(arg.replace(/^--?/, (dashes) => dashes));
    if (assignment && SECRET_WORD.test(assignment[1]!)) return `${arg.slice(0, arg.indexOf('=') + 1)}${REDACTED}`;
    return redactText(arg);
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
  if (typeof value !== 'object') {
    if (secret && value !== '') return REDACTED;
    return typeof value === 'string' ? redactText(value) : value;
  }
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, secret));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_MAPS.has(key) && item !== null && typeof item === 'object' && !Array.isArray(item)) {
      out[key] = Object.fromEntries(
        Object.entries(item).map(([k, v]) => [k, redactSecrets(v, key !== 'provider_tokens' || typeof v !== 'object' || v === null)]),
      );
    } else if (key === 'args' && Array.isArray(item)) {
      out[key] = redactArgs(item);
    } else {
      out[key] = redactSecrets(item, secret || isSecretField(key));
    }
  }
  return out;
}

/** Whether a field of this name holds a secret (`token`, `api_key`, ...). */
export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(fieldWord(name));
}

/** Whether every value of a map of this name is a secret (`env`, `provider_tokens`, `secrets`). */
export function isSecretMap(name: string): boolean {
  return SECRET_MAPS.has(name);
}

/**
 * A value sent back from what was answered, with each masked secret that still reads as it was
 * answered replaced by the stored one at the same place: a GET → edit → POST round trip never
 * stores the mask, and a secret the client did change is the client's.
 * @example
 * unmaskedSecrets({ llm: { api_key: '**********' } }, { llm: { api_key: 'sk-1' } }) // { llm: { api_key: 'sk-1' } }
 */
export function unmaskedSecrets(given: unknown, stored: unknown): unknown {
  if (typeof given === 'string') {
    return given.includes(REDACTED) && typeof stored === 'string' && (given === REDACTED || given === redactText(stored)) ? stored : given;
  }
  if (given === null || typeof given !== 'object' || stored === null || typeof stored !== 'object') return given;
  if (Array.isArray(given)) return Array.isArray(stored) ? given.map((item, i) => unmaskedSecrets(item, stored[i])) : given;
  if (Array.isArray(stored)) return given;
  const before = stored as Record<string, unknown>;
  return Object.fromEntries(Object.entries(given).map(([key, value]) => [key, unmaskedSecrets(value, before[key])]));
}

/** A URL query (`?a=1&key=x`) with its secret parameters masked, for the journal. */
export function redactQuery(query: string): string {
  if (query.length <= 65_536) return redactText(query);
  return query.replace(URL_SECRET_PARAM, (_m, name: string) => `${name}${REDACTED}`);
}
