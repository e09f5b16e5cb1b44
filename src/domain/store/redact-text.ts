/**
 * Secrets inside free text, found by what they look like (a credential scheme, a URL's password, a
 * secret query or fragment parameter, a secret header line), in time linear in the text, however
 * long it is: every run a pattern repeats is bounded, and a pattern whose marker is absent is not run.
 */

/** What a secret reads as in a snapshot, a state file, an echo or an error's `input`. */
export const REDACTED = '**********';

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
/** A secret query or fragment parameter in a URL (`?api_key=x`, `&token=x`, `?key=x`, `&sig=x`, `#access_token=x`). */
const URL_SECRET_PARAM = /([?&#](?:[\w-]{0,64}(?:token|key|secret|passw(?:or)?d|auth|credential|signature|sig)[\w-]{0,64})=)[^&#\s]+/gi;

/**
 * Secrets inside a free-text string: a credential after a scheme (`Bearer x`), the password of a
 * URL, a secret query or fragment parameter, the value of a secret header line. Any length: each
 * pattern is linear in the text (test/domain/redact-backtracking.test.ts).
 * @example
 * redactText('see https://u:pw@h/x') // 'see https://u:**********@h/x'
 */
export function redactText(text: string): string {
  if (text.length < 4) return text;
  const header = SECRET_HEADER.exec(text);
  if (header) return `${text.slice(0, text.indexOf(':') + 1)} ${REDACTED}`;
  let out = text;
  if (out.includes('Bearer') || out.includes('Basic') || out.includes('Token'))
    out = out.replace(CREDENTIAL, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  if (out.includes('://')) out = out.replace(URL_USERINFO, (_m, before: string) => `${before}${REDACTED}@`);
  if (out.includes('=')) out = out.replace(URL_SECRET_PARAM, (_m, name: string) => `${name}${REDACTED}`);
  return out;
}
