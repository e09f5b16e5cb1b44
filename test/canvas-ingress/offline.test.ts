/**
 * The Agent Canvas ingress keeps the page offline by default (src/canvas/ingress.ts): every answer of
 * the page's own carries a Content-Security-Policy that lets it reach its origin and loopback hosts
 * only, and its style sheets lose their imports of other hosts' web fonts; `offline: false`
 * (`fakehands canvas --online`) serves the page as built.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { offlinePolicy, startCanvasIngress, withoutRemoteImports, type CanvasIngress } from '../../src/canvas/ingress.js';

const FONTS =
  '@import "https://fonts.googleapis.com/css2?family=IBM+Plex+Mono:ital,wght@0,100;0,200;1,700&family=Outfit:wght@100..900&display=swap";';
const CSS = `${FONTS}\n@import url(https://cdn.example/icons.css);\n@import "./local.css";\nbody{font-family:Outfit,sans-serif}`;

let ingress: CanvasIngress | null = null;
let dir = '';
afterEach(async () => {
  await ingress?.close();
  ingress = null;
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function start(offline?: boolean): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'fakehands-ingress-'));
  await mkdir(join(dir, 'build'));
  await writeFile(join(dir, 'build', 'index.html'), '<html><head></head><body>canvas</body></html>');
  await writeFile(join(dir, 'build', 'root.css'), CSS);
  ingress = await startCanvasIngress({
    buildDir: join(dir, 'build'),
    agentUrl: 'http://127.0.0.1:9',
    sessionApiKey: 'k',
    allowedHosts: ['canvas.test'],
    ...(offline === undefined ? {} : { offline }),
  });
  return ingress.url;
}

describe('the canvas ingress, offline by default', () => {
  it('answers the page and its files with a policy that allows only its origin, loopback hosts and allowed names', async () => {
    const url = await start();
    for (const path of ['/', '/conversations', '/root.css']) {
      const answer = await fetch(`${url}${path}`);
      expect(answer.headers.get('content-security-policy'), path).toBe(offlinePolicy(['canvas.test']));
    }
    expect(offlinePolicy(['canvas.test'])).toBe(
      [
        "default-src 'self' http://127.0.0.1:* ws://127.0.0.1:* http://localhost:* ws://localhost:* http://[::1]:* ws://[::1]:* http://canvas.test:* ws://canvas.test:*",
        "script-src 'self' http://127.0.0.1:* ws://127.0.0.1:* http://localhost:* ws://localhost:* http://[::1]:* ws://[::1]:* http://canvas.test:* ws://canvas.test:* 'unsafe-inline' 'unsafe-eval' blob:",
        "style-src 'self' http://127.0.0.1:* ws://127.0.0.1:* http://localhost:* ws://localhost:* http://[::1]:* ws://[::1]:* http://canvas.test:* ws://canvas.test:* 'unsafe-inline'",
        "img-src 'self' http://127.0.0.1:* ws://127.0.0.1:* http://localhost:* ws://localhost:* http://[::1]:* ws://[::1]:* http://canvas.test:* ws://canvas.test:* data: blob:",
        "font-src 'self' http://127.0.0.1:* ws://127.0.0.1:* http://localhost:* ws://localhost:* http://[::1]:* ws://[::1]:* http://canvas.test:* ws://canvas.test:* data:",
        "connect-src 'self' http://127.0.0.1:* ws://127.0.0.1:* http://localhost:* ws://localhost:* http://[::1]:* ws://[::1]:* http://canvas.test:* ws://canvas.test:*",
        "worker-src 'self' http://127.0.0.1:* ws://127.0.0.1:* http://localhost:* ws://localhost:* http://[::1]:* ws://[::1]:* http://canvas.test:* ws://canvas.test:* blob:",
        "frame-src 'self' http://127.0.0.1:* ws://127.0.0.1:* http://localhost:* ws://localhost:* http://[::1]:* ws://[::1]:* http://canvas.test:* ws://canvas.test:*",
        "media-src 'self' http://127.0.0.1:* ws://127.0.0.1:* http://localhost:* ws://localhost:* http://[::1]:* ws://[::1]:* http://canvas.test:* ws://canvas.test:* data: blob:",
      ].join('; '),
    );
  });

  it("serves style sheets without their imports of other hosts' web fonts, local imports kept", async () => {
    const url = await start();
    expect(await (await fetch(`${url}/root.css`)).text()).toBe('\n\n@import "./local.css";\nbody{font-family:Outfit,sans-serif}');
    expect(withoutRemoteImports(FONTS)).toBe('');
  });

  it('with offline: false (fakehands canvas --online), serves the page as built', async () => {
    const url = await start(false);
    const answer = await fetch(`${url}/root.css`);
    expect(answer.headers.get('content-security-policy')).toBeNull();
    expect(await answer.text()).toBe(CSS);
  });
});
