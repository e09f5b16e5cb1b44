/**
 * Secrets found by where they sit rather than by what they are called: in a URL, its userinfo and
 * every query and fragment value; in a command line, the word after a flag and the value of a
 * `--flag=value` or `NAME=value`. Each is one pass over the text (no pattern that can backtrack
 * over it), so a value of any length is masked in linear time.
 */
import { REDACTED, redactText } from './redact-text.js';

/** A URL's scheme and `//` (at most 32 characters of scheme, anchored: one attempt). */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\//;
/** A command-line flag on its own (`-k`, `--api-key`, `--header`). */
const FLAG = /^--?[A-Za-z0-9][\w.-]*$/;
/** A flag with its value in the same word (`--api-key=X`, `-k=X`): the part kept. */
const FLAG_VALUE = /^--?[A-Za-z0-9][\w.-]*=/;
/** An assignment word (`API_KEY=X`, as `env` takes it): the part kept. */
const ASSIGNMENT = /^[A-Za-z_]\w*=/;
/** A header line given after a flag (`X-Auth: v`): its name is kept. */
const HEADER_LINE = /^\s*([\w-]{1,128})\s*:(?!\/\/)/;

/** A URL in parts: `scheme://`, userinfo (without its `@`), host and port, path, query and fragment (without `?` and `#`). */
interface UrlParts {
  scheme: string;
  userinfo: string | null;
  host: string;
  path: string;
  query: string | null;
  fragment: string | null;
}

/** `url` in parts, found in one pass (no URL parser: any text a client sends is taken, of any length). */
function urlParts(url: string): UrlParts {
  let scheme = '';
  let userinfo: string | null = null;
  let host = '';
  let rest = url;
  const found = SCHEME.exec(url);
  if (found) {
    scheme = found[0];
    rest = url.slice(scheme.length);
    let end = rest.length;
    for (let i = 0; i < rest.length; i++) {
      const c = rest.charCodeAt(i);
      // '/', '?', '#' end the authority.
      if (c === 47 || c === 63 || c === 35) {
        end = i;
        break;
      }
    }
    const authority = rest.slice(0, end);
    const at = authority.lastIndexOf('@');
    userinfo = at >= 0 ? authority.slice(0, at) : null;
    host = authority.slice(at + 1);
    rest = rest.slice(end);
  }
  const hash = rest.indexOf('#');
  const beforeHash = hash < 0 ? rest : rest.slice(0, hash);
  const question = beforeHash.indexOf('?');
  return {
    scheme,
    userinfo,
    host,
    path: question < 0 ? beforeHash : beforeHash.slice(0, question),
    query: question < 0 ? null : beforeHash.slice(question + 1),
    fragment: hash < 0 ? null : rest.slice(hash + 1),
  };
}

/** A URL put together from its parts. */
const joinUrl = (p: UrlParts) =>
  `${p.scheme}${p.userinfo === null ? '' : `${p.userinfo}@`}${p.host}${p.path}${p.query === null ? '' : `?${p.query}`}${p.fragment === null ? '' : `#${p.fragment}`}`;

/** Userinfo masked: its password, or the user when there is no password. */
function maskUserinfo(userinfo: string): string {
  const colon = userinfo.indexOf(':');
  if (colon < 0) return userinfo === '' ? userinfo : REDACTED;
  return colon < userinfo.length - 1 ? `${userinfo.slice(0, colon + 1)}${REDACTED}` : userinfo;
}

/** Most pairs a query or fragment is masked pair by pair; past them it is masked whole (no URL has that many; a hostile one costs no more than its length). */
export const MAX_MASKED_PAIRS = 64;

/** Whether `part` holds more than `MAX_MASKED_PAIRS` pairs (counted without splitting it). */
function tooManyPairs(part: string): boolean {
  let count = 1;
  for (let at = part.indexOf('&'); at >= 0; at = part.indexOf('&', at + 1)) if (++count > MAX_MASKED_PAIRS) return true;
  return false;
}

/** `a=1&b` with every value masked: `a=**********&**********` (an empty value stays empty); past `MAX_MASKED_PAIRS` pairs, `**********` whole. */
function maskPairs(part: string): string {
  if (part === '') return part;
  if (tooManyPairs(part)) return REDACTED;
  return part
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair === '' ? pair : REDACTED;
      return eq === pair.length - 1 ? pair : `${pair.slice(0, eq + 1)}${REDACTED}`;
    })
    .join('&');
}

/**
 * A URL with its userinfo (the password, or the user when there is no password), every query
 * value and every fragment value masked; its scheme, host, port and path kept.
 * @example
 * maskUrl('https://u:pw@h/p?k=v#access_token=t') // 'https://u:**********@h/p?k=**********#access_token=**********'
 */
export function maskUrl(url: string): string {
  const p = urlParts(url);
  return joinUrl({
    ...p,
    userinfo: p.userinfo === null ? null : maskUserinfo(p.userinfo),
    query: p.query === null ? null : maskPairs(p.query),
    fragment: p.fragment === null ? null : maskPairs(p.fragment),
  });
}

/** Pairs sent back (`a=**********&b=2`), each masked one that reads as a stored pair masked put back to that stored pair (each stored pair once, in order). */
function unmaskedPairs(given: string | null, stored: string | null): string | null {
  if (given === null || stored === null || !given.includes(REDACTED)) return given;
  // Sent back as answered (a query masked whole included): the stored one.
  if (given === maskPairs(stored)) return stored;
  if (tooManyPairs(stored) || tooManyPairs(given)) return given;
  // The stored pairs by how they read masked, in order: one lookup per pair sent back.
  const byMasked = new Map<string, { pairs: string[]; next: number }>();
  for (const pair of stored.split('&')) {
    const masked = maskPairs(pair);
    const entry = byMasked.get(masked);
    if (entry) entry.pairs.push(pair);
    else byMasked.set(masked, { pairs: [pair], next: 0 });
  }
  return given
    .split('&')
    .map((pair) => {
      const entry = pair.includes(REDACTED) ? byMasked.get(pair) : undefined;
      return entry && entry.next < entry.pairs.length ? entry.pairs[entry.next++]! : pair;
    })
    .join('&');
}

/**
 * A URL sent back from what was answered, each masked part (password, query or fragment value)
 * put back to the stored URL's at the same place; only to the same scheme, host and path (a
 * secret is never moved to another server), and a part the client changed is the client's.
 * @example
 * unmaskedUrl('https://h/p?k=**********&r=us', 'https://h/p?k=v&r=eu') // 'https://h/p?k=v&r=us'
 */
export function unmaskedUrl(given: string, stored: string): string {
  if (!given.includes(REDACTED)) return given;
  const g = urlParts(given);
  const s = urlParts(stored);
  if (g.scheme !== s.scheme || g.host !== s.host || g.path !== s.path) return given;
  const userinfo = g.userinfo !== null && s.userinfo !== null && g.userinfo === maskUserinfo(s.userinfo) ? s.userinfo : g.userinfo;
  return joinUrl({ ...g, userinfo, query: unmaskedPairs(g.query, s.query), fragment: unmaskedPairs(g.fragment, s.fragment) });
}

/**
 * A command line's words with the secrets masked by position: the word after a flag (`--key X`,
 * `-k X`; a header line keeps its name: `-H 'X-Auth: **********'`), the value of `--flag=X` and
 * `NAME=X`, and in other words a URL's userinfo, query and fragment values, or what free text masks.
 * A flag itself, and a word that is not a string, are kept (`mask` masks the latter).
 * @example
 * maskArgs(['--key', 'k1', '--api-key=k2', 'serve'], (v) => v) // ['--key', '**********', '--api-key=**********', 'serve']
 */
export function maskArgs(args: readonly unknown[], mask: (value: unknown) => unknown): unknown[] {
  return args.map((arg, i) => {
    if (typeof arg !== 'string') return mask(arg);
    if (FLAG.test(arg)) return arg;
    const inline = FLAG_VALUE.exec(arg) ?? ASSIGNMENT.exec(arg);
    if (inline) return arg.length > inline[0].length ? `${inline[0]}${REDACTED}` : arg;
    const previous = args[i - 1];
    if (typeof previous === 'string' && FLAG.test(previous)) {
      if (arg === '') return arg;
      const header = HEADER_LINE.exec(arg);
      return header ? `${header[1]}: ${REDACTED}` : REDACTED;
    }
    return SCHEME.test(arg) ? maskUrl(arg) : redactText(arg);
  });
}
