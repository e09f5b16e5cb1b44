/**
 * The Agent Canvas ingress (`fakehands canvas`, src/canvas/ingress.ts) and the Host header: a page
 * reached under a foreign name (DNS rebinding) gets 421, as the fake's own listeners answer it
 * (src/server/http-server.ts), never index.html with the session key and the app server's key; and
 * what it forwards to the agent host keeps the browser's Host, so the agent host's own check sees it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ingressHostServed, startCanvasIngress, type CanvasIngress } from '../../src/canvas/ingress.js';

const SESSION_KEY = 'session-key-of-the-agent-host';
const APP_KEY = 'app-server-api-key';
const MISDIRECTED = {
  detail: 'Misdirected Request: this host name is not served (fakehands serves loopback names; add others with --allowed-host)',
};

let ingress: CanvasIngress | null = null;
let upstream: Server | null = null;
let dir = '';
afterEach(async () => {
  await ingress?.close();
  ingress = null;
  if (upstream) {
    const server = upstream;
    upstream = null;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

/** An agent server stand-in recording the Host of each request it gets (HTTP and upgrade alike). */
async function startUpstream(): Promise<{ url: string; hosts: (string | undefined)[] }> {
  const hosts: (string | undefined)[] = [];
  upstream = createServer((req, res) => {
    hosts.push(req.headers.host);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  upstream.on('upgrade', (req, socket) => {
    hosts.push(req.headers.host);
    socket.end('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n\r\n');
  });
  await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(upstream.address() as { port: number }).port}`, hosts };
}

/** An ingress over a one-page build/, with the agent host and the app server keys. */
async function start(agentUrl: string, allowedHosts?: string[]): Promise<number> {
  dir = await mkdtemp(join(tmpdir(), 'fakehands-ingress-host-'));
  await mkdir(join(dir, 'build'));
  await writeFile(join(dir, 'build', 'index.html'), '<html><head></head><body>canvas</body></html>');
  ingress = await startCanvasIngress({
    buildDir: join(dir, 'build'),
    agentUrl,
    sessionApiKey: SESSION_KEY,
    cloud: { url: 'http://127.0.0.1:3000', apiKey: APP_KEY },
    ...(allowedHosts ? { allowedHosts } : {}),
  });
  return Number(new URL(ingress.url).port);
}

/** A request to the ingress with the given Host header: its status, content type and body. */
function get(port: number, path: string, host: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw WebSocket upgrade with the given Host header: the first line of the answer. */
function upgrade(port: number, path: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      );
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
    });
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

describe('GET / (index.html with the keys) on the canvas ingress', () => {
  it('answers a foreign Host with 421 and no key, as the agent host answers it', async () => {
    const port = await start('http://127.0.0.1:9');
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`]) {
      const answer = await get(port, '/', host);
      expect(answer, host).toEqual({ status: 421, type: 'application/json', body: JSON.stringify(MISDIRECTED) });
    }
    const deep = await get(port, '/conversations/abc', `rebound.example:${port}`);
    expect(deep.status).toBe(421);
    expect(deep.body).not.toContain(SESSION_KEY);
    expect(deep.body).not.toContain(APP_KEY);
  });

  it('serves the page with its keys to the loopback names on its own port', async () => {
    const port = await start('http://127.0.0.1:9');
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LocalHost:${port}`]) {
      const answer = await get(port, '/', host);
      expect(answer.status, host).toBe(200);
      expect(answer.body, host).toContain(JSON.stringify(SESSION_KEY));
      expect(answer.body, host).toContain(JSON.stringify(APP_KEY));
    }
  });

  it('answers a loopback name on another port with 421 (another origin)', async () => {
    const port = await start('http://127.0.0.1:9');
    const other = port === 65535 ? port - 1 : port + 1;
    expect((await get(port, '/', `localhost:${other}`)).status).toBe(421);
    expect((await get(port, '/', 'localhost')).status).toBe(421);
  });

  it('serves a name given with --allowed-host', async () => {
    const port = await start('http://127.0.0.1:9', ['canvas.lan']);
    expect((await get(port, '/', `canvas.lan:${port}`)).status).toBe(200);
    expect((await get(port, '/', `other.lan:${port}`)).status).toBe(421);
  });
});

describe('/api on the canvas ingress (forwarded to the agent host)', () => {
  it('forwards the browser Host unchanged, so the agent host checks it', async () => {
    const agent = await startUpstream();
    const port = await start(agent.url);
    const answer = await get(port, '/api/settings', `localhost:${port}`);
    expect(answer).toEqual({ status: 200, type: 'application/json', body: '{"ok":true}' });
    expect(agent.hosts).toEqual([`localhost:${port}`]);
  });

  it('answers a foreign Host with 421 without reaching the agent host', async () => {
    const agent = await startUpstream();
    const port = await start(agent.url);
    const answer = await get(port, '/api/settings', `evil.example:${port}`);
    expect(answer).toEqual({ status: 421, type: 'application/json', body: JSON.stringify(MISDIRECTED) });
    expect(agent.hosts).toEqual([]);
  });
});

describe('WebSocket upgrades on the canvas ingress (/sockets)', () => {
  it('forwards a loopback Host unchanged and answers a foreign one 421 without reaching the agent host', async () => {
    const agent = await startUpstream();
    const port = await start(agent.url);
    expect(await upgrade(port, '/sockets/events/x', `evil.example:${port}`)).toBe('HTTP/1.1 421 Misdirected Request');
    expect(agent.hosts).toEqual([]);
    expect(await upgrade(port, '/sockets/events/x', `127.0.0.1:${port}`)).toBe('HTTP/1.1 101 Switching Protocols');
    expect(agent.hosts).toEqual([`127.0.0.1:${port}`]);
  });
});

describe('ingressHostServed', () => {
  it('takes the loopback names on the port, names allowed on any port, and * for any Host', () => {
    expect(ingressHostServed('127.0.0.1:3001', 3001, [])).toBe(true);
    expect(ingressHostServed('[::1]:3001', 3001, [])).toBe(true);
    expect(ingressHostServed('localhost', 80, [])).toBe(true);
    expect(ingressHostServed('[::1]', 3001, [])).toBe(false);
    expect(ingressHostServed('127.0.0.2:3001', 3001, [])).toBe(false);
    expect(ingressHostServed('localhost:3001x', 3001, [])).toBe(false);
    expect(ingressHostServed(undefined, 3001, [])).toBe(false);
    expect(ingressHostServed('box.lan:8080', 3001, ['box.lan'])).toBe(true);
    expect(ingressHostServed('anything:1', 3001, ['*'])).toBe(true);
  });
});
