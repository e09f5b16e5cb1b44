/**
 * A sabotaged provider for the message contracts' tests: a proxy in front of a fake's app server
 * and agent host that passes every request through, points `conversation_url` at itself, and
 * rewrites or drops the events of the socket as `sabotage` says (a renamed kind, a dropped kind,
 * a dropped field), the way a provider that changed its events would send them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';

/** What the proxy does to each event frame: the frame to send instead, or null to drop it. */
export type Sabotage = (event: Record<string, unknown>) => Record<string, unknown> | null;

/** A running proxy pair: the app server's URL to verify and a way to stop both. */
export interface SabotagedProvider {
  url: string;
  close(): Promise<void>;
}

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'upgrade', 'keep-alive']);

/** Forwards one request to `upstream`, rewriting the answer's text with `rewrite`. */
async function forward(request: IncomingMessage, response: ServerResponse, upstream: string, rewrite: (text: string) => string) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers))
    if (!HOP_HEADERS.has(name) && typeof value === 'string') headers[name] = value;
  const answer = await fetch(`${upstream}${request.url}`, {
    method: request.method ?? 'GET',
    headers,
    ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
  });
  const text = rewrite(await answer.text());
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!HOP_HEADERS.has(name) && name !== 'content-encoding') out[name] = value;
  });
  response.writeHead(answer.status, out).end(text);
}

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)),
  );

/** Starts the proxies in front of the fake at `appUrl` (its agent host at `agentUrl`). */
export async function startSabotagedProvider(appUrl: string, agentUrl: string, sabotage: Sabotage): Promise<SabotagedProvider> {
  const sockets = new WebSocketServer({ noServer: true });
  const agent = createServer((request, response) => void forward(request, response, agentUrl, (t) => t));
  agent.on('upgrade', (request, socket, head) => {
    sockets.handleUpgrade(request, socket, head, (client) => {
      const upstream = new WebSocket(`${agentUrl.replace(/^http/, 'ws')}${request.url}`);
      const pending: string[] = [];
      upstream.on('open', () => {
        for (const frame of pending.splice(0)) upstream.send(frame);
      });
      upstream.on('message', (data) => {
        const frame = sabotage(JSON.parse(String(data)) as Record<string, unknown>);
        if (frame) client.send(JSON.stringify(frame));
      });
      upstream.on('close', () => client.close());
      upstream.on('error', () => client.close());
      client.on('message', (data) => (upstream.readyState === WebSocket.OPEN ? upstream.send(String(data)) : pending.push(String(data))));
      client.on('close', () => upstream.close());
    });
  });
  const agentProxyUrl = await listen(agent);
  const app = createServer((request, response) => void forward(request, response, appUrl, (t) => t.replaceAll(agentUrl, agentProxyUrl)));
  const url = await listen(app);
  return {
    url,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      agent.closeAllConnections();
      app.closeAllConnections();
      await Promise.all([new Promise((r) => agent.close(r)), new Promise((r) => app.close(r))]);
    },
  };
}
