/**
 * The servers a target hands out: an app server's answers send the client straight to each
 * sandbox's agent server (`conversation_url`, a sandbox's `exposed_urls` such as `AGENT_SERVER` and
 * `VSCODE`, a legacy conversation's `url`), which a recording proxy in front of the app server alone
 * would never see. Each such URL, when its origin is one the target hands out (a loopback name or the
 * target's own host, never any other), is rewritten in the answer to a proxy of its own, started once
 * per origin, so the client's traffic to the sandbox is recorded too. The rewriting leaves every
 * other value of the answer as it was; an answer with nothing to rewrite is sent on byte for byte.
 */
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { hostAllowed } from '../server/host-check.js';

/** The largest JSON answer searched for URLs to rewrite; a larger one is sent on as it came. */
export const REWRITE_BYTES = 8 * 1024 * 1024;
/** How deep an answer is searched. */
const MAX_DEPTH = 64;
/** Byte markers of the fields that may hold a handed-out URL: an answer with none of them is not parsed. */
const MARKERS = ['conversation_url', 'exposed_urls', 'session_api_key'].map((name) => Buffer.from(`"${name}"`));

/** The decoders of the content codings a body may come in. */
export const BODY_DECODERS: Record<string, (input: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether `text` is a URL the target hands out: http(s), on a loopback name or the target's host.
 * @example
 * isHandedOut('http://localhost:8000/api/conversations/ab12', new URL('http://127.0.0.1:3000')) // true
 * isHandedOut('https://example.com/x', new URL('http://127.0.0.1:3000')) // false
 */
export function isHandedOut(text: string, target: URL): boolean {
  if (!/^https?:\/\//i.test(text) || !URL.canParse(text)) return false;
  const url = new URL(text);
  return url.host !== '' && hostAllowed(url.host, [target.hostname]);
}

/**
 * A copy of a JSON value with each URL in a field that hands out a server replaced by what `map`
 * answers for it (`undefined`: kept): `conversation_url` anywhere, `url` of an `exposed_urls` item,
 * and `url` beside `session_api_key` (a legacy conversation's). Other values are the same objects.
 */
export function mapServerUrls(value: unknown, map: (url: string) => string | undefined): unknown {
  const walk = (node: unknown, depth: number, inExposed: boolean): unknown => {
    if (depth > MAX_DEPTH) return node;
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1, inExposed));
    if (!isObject(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(node)) {
      const urlField = key === 'conversation_url' || (key === 'url' && (inExposed || 'session_api_key' in node));
      out[key] =
        urlField && typeof item === 'string' ? (map(item) ?? item) : walk(item, depth + 1, key === 'exposed_urls' && Array.isArray(item));
    }
    return out;
  };
  return walk(value, 0, false);
}

/** Where a handed-out origin is reached through a proxy: its origin as the client reaches it (`http://HOST:PORT`). */
export type ProxyOrigin = (origin: URL) => Promise<URL>;

/**
 * The answer's body with each handed-out URL rewritten to its proxy (`proxyFor` starts one for an
 * origin seen the first time), decoded when it was compressed (the headers then lose their
 * `content-encoding`); `null` when there is nothing to rewrite (the answer goes on as it came).
 * @example
 * const body = await rewriteAnswer(bytes, 'gzip', new URL('http://127.0.0.1:3000'), proxyFor)
 */
export async function rewriteAnswer(bytes: Buffer, encoding: string, target: URL, proxyFor: ProxyOrigin): Promise<Buffer | null> {
  const coding = encoding.trim().toLowerCase();
  let plain = bytes;
  if (coding !== '' && coding !== 'identity') {
    const decode = BODY_DECODERS[coding];
    if (!decode) return null;
    try {
      plain = await decode(bytes, { maxOutputLength: REWRITE_BYTES });
    } catch {
      return null;
    }
  }
  if (!MARKERS.some((marker) => plain.includes(marker))) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(plain.toString('utf8'));
  } catch {
    return null;
  }
  const origins = new Set<string>();
  mapServerUrls(parsed, (url) => {
    if (isHandedOut(url, target)) origins.add(new URL(url).origin);
    return undefined;
  });
  if (origins.size === 0) return null;
  const proxies = new Map<string, URL>();
  for (const origin of origins) proxies.set(origin, await proxyFor(new URL(origin)));
  const rewritten = mapServerUrls(parsed, (url) => {
    if (!isHandedOut(url, target)) return undefined;
    const to = proxies.get(new URL(url).origin);
    // Only the scheme and authority change: the rest is the text as it was (no slash added to a bare origin).
    return to ? url.replace(/^https?:\/\/[^/?#]*/i, to.origin) : undefined;
  });
  return Buffer.from(JSON.stringify(rewritten));
}
