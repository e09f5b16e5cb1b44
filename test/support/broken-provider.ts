/**
 * Test support: a deliberately broken provider, a proxy in front of a real fakehands server that
 * rewrites some answers, to prove the contract verification detects drift.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';

/** Rewrites one answer: return a new status and body, or `null` to pass it through. */
export type Breakage = (
  request: { method: string; path: string },
  answer: { status: number; body: unknown },
) => { status: number; body: unknown } | null;

const open = new Set<Server>();
afterEach(async () => {
  await Promise.all([...open].map((server) => new Promise((resolve) => server.close(resolve))));
  open.clear();
});

/** Starts a proxy to `target` that applies `breakage`; resolves with its URL. */
export async function startBrokenProvider(target: string, breakage: Breakage): Promise<string> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        ([k, v]) => typeof v === 'string' && !['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k),
      ),
    ) as Record<string, string>;
    const upstream = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const text = await upstream.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const broken = breakage({ method: req.method ?? 'GET', path }, { status: upstream.status, body });
    const answer = broken ?? { status: upstream.status, body };
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  open.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Starts a proxy to `target` that dies when `fatal` matches a request: it drops that connection and
 * every other, and stops listening (a provider that crashes mid-run); resolves with its URL.
 */
export async function startDyingProvider(target: string, fatal: (req: IncomingMessage) => boolean): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    if (fatal(req)) {
      server.close();
      for (const socket of sockets) socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        ([k, v]) => typeof v === 'string' && !['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k),
      ),
    ) as Record<string, string>;
    const upstream = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  open.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
