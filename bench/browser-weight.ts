/**
 * What `fakehands/browser` costs a page (issue 23), against the same page with msw alone, both
 * built in the same run by the same bundler: Vite's production build (the bundler of the OpenHands
 * web app) and esbuild's (minified, code splitting on, as a page's bundler splits dynamic imports).
 *
 * - Weight: the bytes a page downloads before its first request is answered (its entry chunk and
 *   every chunk the entry imports statically), minified and gzipped chunk by chunk as a server sends
 *   them; and every chunk the build wrote (what the page may load later: the agent host, the
 *   settings, the inspector...).
 * - First request in Chromium: from navigation start to the first answer of
 *   `GET /api/v1/sandboxes/search?limit=20`, in a fresh browser context each time (no cache, the
 *   service worker registered anew), median of `runs`, the two pages taking turns.
 *
 * Run with `npm run bench -- browser` (after `npm run build`: the page imports the built package).
 */
import { copyFile, mkdir, rm, writeFile, readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { build as viteBuild, type Rollup } from 'vite';
import { chromium, type Browser } from 'playwright-core';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORK = join(ROOT, '.tmp/bench-pages');

/** What each page does: start intercepting, then ask for the first page of sandboxes. */
const FIRST_REQUEST = `
const started = performance.now();
const response = await fetch('/api/v1/sandboxes/search?limit=20');
const body = await response.json();
window.__firstAnswer = { ms: performance.now(), status: response.status, items: body.items.length, scriptStartMs: scriptStart, startedMs: started };
`;

/** The two pages: msw with one handler for the same request, and fakehands/browser with its defaults. */
export const PAGES = {
  msw: `const scriptStart = performance.now();
import { setupWorker } from 'msw/browser';
import { http, HttpResponse } from 'msw';
const worker = setupWorker(http.get('/api/v1/sandboxes/search', () => HttpResponse.json({ items: [], next_page_id: null })));
await worker.start({ quiet: true });
${FIRST_REQUEST}`,
  fakehands: `const scriptStart = performance.now();
import { startFakeWorker } from 'fakehands/browser';
await startFakeWorker({ baseUrl: location.origin, auth: 'none' });
${FIRST_REQUEST}`,
} as const;
export type PageName = keyof typeof PAGES;
export type Bundler = 'vite' | 'esbuild';

/** Bytes of a built page. */
export interface PageWeight {
  /** Chunks loaded before the first answer: the entry and what it imports statically. */
  initial: { chunks: number; min: number; gzip: number };
  /** Every chunk written. */
  all: { chunks: number; min: number; gzip: number };
  /** Where the page was written (to be served). */
  dir: string;
}

interface Chunk {
  name: string;
  code: string | Uint8Array;
  imports: string[];
  entry: boolean;
}

/** The weight of the chunks, `initial` being the static-import closure of the entry. */
function weigh(chunks: Chunk[], dir: string): PageWeight {
  const byName = new Map(chunks.map((c) => [c.name, c]));
  const entry = chunks.find((c) => c.entry);
  if (!entry) throw new Error('no entry chunk');
  const initial = new Set<string>();
  const stack = [entry.name];
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (initial.has(name)) continue;
    initial.add(name);
    stack.push(...(byName.get(name)?.imports ?? []));
  }
  const sum = (list: Chunk[]) => ({
    chunks: list.length,
    min: list.reduce((n, c) => n + Buffer.byteLength(c.code), 0),
    gzip: list.reduce((n, c) => n + gzipSync(c.code).length, 0),
  });
  return { initial: sum(chunks.filter((c) => initial.has(c.name))), all: sum(chunks), dir };
}

/** Writes the page's HTML and script under `.tmp/bench-pages/NAME`. */
async function writePage(name: PageName): Promise<string> {
  const dir = join(WORK, name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>page</title><script type="module" src="./main.js"></script>\n',
  );
  await writeFile(join(dir, 'main.js'), PAGES[name]);
  return dir;
}

/** Builds a page with Vite (production, minified) into its `dist-vite/`. */
async function buildWithVite(name: PageName): Promise<PageWeight> {
  const dir = await writePage(name);
  const outDir = join(dir, 'dist-vite');
  const result = await viteBuild({
    root: dir,
    logLevel: 'silent',
    configFile: false,
    build: { outDir, emptyOutDir: true, minify: true, modulePreload: { polyfill: false } },
  });
  const output = (Array.isArray(result) ? result[0] : result) as Rollup.RollupOutput;
  const chunks = output.output
    .filter((file): file is Rollup.OutputChunk => file.type === 'chunk')
    .map((c) => ({ name: c.fileName, code: c.code, imports: c.imports, entry: c.isEntry }));
  return weigh(chunks, outDir);
}

/** Builds a page with esbuild (bundled, minified, code splitting, production) into its `dist-esbuild/`. */
async function buildWithEsbuild(name: PageName): Promise<PageWeight> {
  const dir = await writePage(name);
  const outDir = join(dir, 'dist-esbuild');
  await rm(outDir, { recursive: true, force: true });
  const result = await esbuild({
    entryPoints: { main: join(dir, 'main.js') },
    outdir: outDir,
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    metafile: true,
    write: true,
    logLevel: 'error',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  await copyFile(join(dir, 'index.html'), join(outDir, 'index.html'));
  const chunks: Chunk[] = [];
  for (const [path, output] of Object.entries(result.metafile.outputs)) {
    if (!path.endsWith('.js')) continue;
    const name = path.slice(path.lastIndexOf('/') + 1);
    chunks.push({
      name,
      code: await readFile(join(ROOT, path)),
      entry: name === 'main.js',
      imports: output.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path.slice(i.path.lastIndexOf('/') + 1)),
    });
  }
  return weigh(chunks, outDir);
}

/** Builds both pages with `bundler`. */
export async function buildPages(bundler: Bundler): Promise<Record<PageName, PageWeight>> {
  const build = bundler === 'vite' ? buildWithVite : buildWithEsbuild;
  return { msw: await build('msw'), fakehands: await build('fakehands') };
}

/** Serves a built page and msw's worker script on 127.0.0.1 (an ephemeral port). */
async function serve(dir: string): Promise<{ url: string; server: Server }> {
  await copyFile(join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'), join(dir, 'mockServiceWorker.js'));
  const files = new Set(await readdir(dir, { recursive: true }));
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname.slice(1) || 'index.html';
    if (!files.has(path)) {
      response.writeHead(404).end();
      return;
    }
    readFile(join(dir, path)).then(
      (body) => {
        response
          .writeHead(200, { 'content-type': path.endsWith('.html') ? 'text/html' : 'text/javascript', 'cache-control': 'no-store' })
          .end(body);
      },
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, server };
}

/** One page load: the first answer's time from navigation start, and the scripts fetched before it. */
export interface FirstAnswer {
  /** Navigation start to the first answer. */
  ms: number;
  status: number;
  items: number;
  /** Navigation start to the page's script running (its chunks downloaded and evaluated). */
  scriptStartMs: number;
  /** Navigation start to intercepting (the worker registered; the fake loaded its fixture). */
  startedMs: number;
  /** Scripts fetched before the first answer. */
  scripts: number;
}

/** Loads the page at `url` in a fresh context and waits for its first answer. */
async function loadOnce(browser: Browser, url: string): Promise<FirstAnswer> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script' && !request.url().endsWith('mockServiceWorker.js')) scripts.push(request.url());
    });
    await page.goto(url);
    await page.waitForFunction(() => (window as { __firstAnswer?: unknown }).__firstAnswer !== undefined, undefined, { timeout: 30_000 });
    const answer = await page.evaluate(() => (window as unknown as { __firstAnswer: Omit<FirstAnswer, 'scripts'> }).__firstAnswer);
    return { ...answer, scripts: scripts.length };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The first-request time of both pages in Chromium, taking turns, median of `runs` (after one warm-up each). */
export async function firstRequest(
  pages: Record<PageName, PageWeight>,
  runs = 15,
  executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
): Promise<Record<PageName, { medianMs: number; runs: FirstAnswer[] }>> {
  const servers = { msw: await serve(pages.msw.dir), fakehands: await serve(pages.fakehands.dir) };
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const results: Record<PageName, FirstAnswer[]> = { msw: [], fakehands: [] };
    for (const name of ['msw', 'fakehands'] as const) await loadOnce(browser, servers[name].url);
    for (let i = 0; i < runs; i += 1) {
      for (const name of ['msw', 'fakehands'] as const) results[name].push(await loadOnce(browser, servers[name].url));
    }
    return {
      msw: { medianMs: median(results.msw.map((r) => r.ms)), runs: results.msw },
      fakehands: { medianMs: median(results.fakehands.map((r) => r.ms)), runs: results.fakehands },
    };
  } finally {
    await browser.close();
    for (const { server } of Object.values(servers)) server.close();
  }
}
