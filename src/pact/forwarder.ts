/**
 * The agent server's contracts are verified through this forwarder: Pact's verifier knows one
 * provider URL, but each conversation's agent server may live at its own (a real deployment gives
 * every sandbox its own port), known only once a provider state has started the conversation. The
 * forwarder sends each request to the origin the last state set. Written by hand (about 40 lines
 * over node:http and fetch): the usual library for this, http-proxy, has not been released since 2020.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running forwarder. */
export interface Forwarder {
  /** Where it listens (127.0.0.1, an ephemeral port). */
  url: string;
  /** Where requests go now; `null` until a state sets it. */
  target: string | null;
  /** Stops it. */
  close(): Promise<void>;
}

/** Headers a hop sets for itself, never forwarded. */
const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'content-encoding']);

const forwardable = (headers: IncomingHttpHeaders | Headers): [string, string][] =>
  [...(headers instanceof Headers ? headers.entries() : Object.entries(headers))]
    .filter((entry): entry is [string, string | string[]] => entry[1] !== undefined && !HOP.has(entry[0].toLowerCase()))
    .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]);

/** Starts a forwarder on 127.0.0.1. */
export async function startForwarder(): Promise<Forwarder> {
  const forwarder: Forwarder = { url: '', target: null, close: async () => undefined };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer =
      forwarder.target === null
        ? null
        : await fetch(`${forwarder.target}${request.url ?? '/'}`, {
            method: request.method,
            headers: forwardable(request.headers),
            body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
            redirect: 'manual',
          }).catch(() => null);
    if (!answer) {
      response.writeHead(502, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          detail:
            forwarder.target === null
              ? 'no provider state has started a conversation yet'
              : `the agent server at ${forwarder.target} did not answer`,
        }),
      );
      return;
    }
    const body = Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, Object.fromEntries([...forwardable(answer.headers), ['content-length', String(body.length)]]));
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  forwarder.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  forwarder.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return forwarder;
}
