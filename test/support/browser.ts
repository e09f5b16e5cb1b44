/**
 * Test support for the Chromium tests: Debian's `chromium`, driven headless by playwright-core (no
 * browser download), and a static server for a page bundled with `fakehands/browser` and msw's
 * worker script (what `npx msw init` copies).
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from './chromium-path.js';

const ROOT = new URL('../..', import.meta.url).pathname;
/** Where Chromium is: `CHROMIUM_PATH`, or where Debian installs it (`apt-get install chromium`). */
export const CHROMIUM = chromiumPath();

/** Launches headless Chromium; without one (where FAKEHANDS_REQUIRE_BROWSER=1 keeps the suites from skipping), fails saying how to get it. */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    return Promise.reject(
      new Error(`no Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary`),
    );
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/**
 * Builds the test page (test/browser/app.ts bundled for the browser) into `.tmp/browser-page/`,
 * with code splitting as a page's bundler does: what fakehands loads on first need is a chunk of its own.
 */
export async function buildPage(): Promise<string> {
  const dir = join(ROOT, '.tmp/browser-page');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await build({
    entryPoints: { app: join(ROOT, 'test/browser/app.ts') },
    outdir: dir,
    splitting: true,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    logLevel: 'warning',
  });
  await copyFile(join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'), join(dir, 'mockServiceWorker.js'));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>app</title><script type="module" src="/app.js"></script>',
  );
  return dir;
}

/** Serves the files of `dir` on 127.0.0.1 (an ephemeral port); resolves with its URL and the server. */
export async function serveStatic(dir: string): Promise<{ url: string; server: Server }> {
  const types: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html' };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    // Like a dev server: a path that names no file (an app route, /_fakehands/) gets the page.
    const file = path === '/' || !/\.[a-z]+$/.test(path) ? 'index.html' : path.slice(1);
    readFile(join(dir, file)).then(
      (body) => {
        response.writeHead(200, { 'content-type': types[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' });
        response.end(body);
      },
      () => {
        response.writeHead(404);
        response.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server };
}
