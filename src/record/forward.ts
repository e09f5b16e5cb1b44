/**
 * What the recording proxy sends on, and what it answers itself: the target URL of a request (always
 * under the target), the headers it forwards, and the refusals it writes before the target is asked
 * (a Host name that is not served, a target that is no path, an upgrade that is no handshake, the
 * target down), each with a FastAPI-style `{"detail"}` body.
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { hostAllowed } from '../server/host-check.js';

/** Headers that belong to one connection, never forwarded. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** A message's raw headers as pairs. */
export const pairsOf = (raw: readonly string[]): [string, string][] => {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
};

/** Headers to send on: all but the hop-by-hop ones (and `host`, which becomes the target's). */
export function forwardable(pairs: readonly [string, string][], drop: (name: string) => boolean = () => false): OutgoingHttpHeaders {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || lower === 'host' || drop(lower)) continue;
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

/**
 * Where a request's target (its path and query, as the client sent it) goes on `target`: under the
 * target's own path; `null` for anything but a path (an absolute URL, `*`), which is never sent on.
 * @example
 * forwardUrl(new URL('http://127.0.0.1:8000'), '//elsewhere/x') // http://127.0.0.1:8000//elsewhere/x
 */
export function forwardUrl(target: URL, path: string): URL | null {
  if (!path.startsWith('/')) return null;
  try {
    return new URL(`${target.origin}${target.pathname.replace(/\/$/, '')}${path}`);
  } catch {
    return null;
  }
}

/** A one-off answer written on a raw socket (an upgrade the proxy refuses). */
export const rawAnswer = (status: number, reason: string, body: string) =>
  `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;

/** Why the proxy refuses a request before it sends it on: its status, reason and `{"detail"}` body; `null` when it goes on. */
export function refusal(
  req: IncomingMessage,
  target: URL,
  allowedHosts: readonly string[],
): { status: number; reason: string; body: string } | null {
  if (!hostAllowed(req.headers.host, allowedHosts))
    return {
      status: 421,
      reason: 'Misdirected Request',
      body: JSON.stringify({
        detail: 'Misdirected Request: this host name is not served (the proxy serves loopback names; add others with --allowed-host)',
      }),
    };
  if (forwardUrl(target, req.url ?? '') === null)
    return { status: 400, reason: 'Bad Request', body: JSON.stringify({ detail: 'Bad Request: the request target is not a path' }) };
  return null;
}

/** Whether an upgrade is a WebSocket handshake the proxy can accept (RFC 6455 section 4.2.1, as `ws` checks it). */
export const isHandshake = (req: IncomingMessage) =>
  req.method === 'GET' &&
  req.headers.upgrade?.toLowerCase() === 'websocket' &&
  /^[+/0-9A-Za-z]{22}==$/.test(req.headers['sec-websocket-key'] ?? '') &&
  (req.headers['sec-websocket-version'] === '13' || req.headers['sec-websocket-version'] === '8');

/** The 502 a client gets when the target cannot be reached. */
export const badGateway = (target: string, reason: string) =>
  JSON.stringify({ detail: `Bad Gateway: ${target} did not answer (${reason})` });
