/**
 * The Agent Canvas ingress (`fakehands canvas`, src/canvas/ingress.ts) under hostile paths: a
 * malformed %-escape is a 400 and the ingress goes on answering; nothing outside `build/` is served,
 * a file beside it whose name starts with "build" included.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodedPath, startCanvasIngress, type CanvasIngress } from '../../src/canvas/ingress.js';

let ingress: CanvasIngress | null = null;
let dir = '';
afterEach(async () => {
  await ingress?.close();
  ingress = null;
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** An ingress over a build/ folder with one asset, beside a secret file whose name starts with "build". */
async function start(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'fakehands-ingress-'));
  await mkdir(join(dir, 'build'));
  await writeFile(join(dir, 'build', 'index.html'), '<html><head></head><body>canvas</body></html>');
  await writeFile(join(dir, 'build', 'app.js'), 'console.log("app")');
  await writeFile(join(dir, 'build-secret.txt'), 'the secret beside build/');
  ingress = await startCanvasIngress({ buildDir: join(dir, 'build'), agentUrl: 'http://127.0.0.1:9', sessionApiKey: 'k' });
  return ingress.url;
}

/** A GET of a raw path (not normalised by a URL parser), its status and body. */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET on the canvas ingress', () => {
  it('answers a malformed %-escape with 400 and goes on serving', async () => {
    const url = await start();
    expect(await rawGet(url, '/%ZZ.js')).toEqual({ status: 400, body: 'Bad Request: malformed percent-encoding in the path' });
    expect(await rawGet(url, '/app.js')).toEqual({ status: 200, body: 'console.log("app")' });
  });

  it('serves nothing beside build/, a file whose name starts with "build" included', async () => {
    const url = await start();
    for (const path of ['/../build-secret.txt', '/..%2Fbuild-secret.txt', '/%2E%2E/build-secret.txt']) {
      const answer = await rawGet(url, path);
      expect(answer.body, path).not.toContain('the secret');
    }
  });
});

describe('decodedPath', () => {
  it('decodes a path, and answers null for a malformed escape instead of throwing', () => {
    expect(decodedPath('/a%20b.js')).toBe('/a b.js');
    expect(decodedPath('/%ZZ')).toBeNull();
    expect(decodedPath('/%E0%A4%A')).toBeNull();
  });
});
