/**
 * 200 conversations streaming at once, measured alone: a fresh `fakehands serve --streaming` (its own
 * process, 127.0.0.1, the loop preload `bench/servers/loop-delay.mjs`), CONVERSATIONS conversations
 * each with a socket open, each sent a message at once; the agent answers each with TOKENS tokens,
 * streamed at 50 tokens/s. Meanwhile `GET /_fakehands/health` is asked every 20 ms, one at a time.
 * The baseline, in the same run and the same server: the same health checks for the same time with
 * the sockets open and nothing streaming. Prints each phase's health latency (p50, p99, max), the
 * server's event-loop delay (p99, longest turn wall / CPU), the delta frames received, and the
 * loaded p99 as a ratio of the baseline's.
 * Usage: npm run build && npx tsx bench/streaming-many.ts [CONVERSATIONS] [TOKENS]
 */
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { round, spawnServer } from './lib.js';

const CONVERSATIONS = Number(process.argv[2] ?? 200);
const TOKENS = Number(process.argv[3] ?? 200);
const RATE = 50;
const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const BIN = process.env.BENCH_FAKEHANDS ?? root('bin/fakehands.js');

const server = await spawnServer(
  [
    '--expose-gc',
    '--import',
    root('bench/servers/loop-delay.mjs'),
    BIN,
    'serve',
    '--port',
    '0',
    '--quiet',
    '--auth',
    'none',
    '--streaming',
  ],
  {},
  true,
);
type Probe = { maxMs: number; p99Ms: number; maxCpuMs: number };
const ask = (message: 'reset' | 'read') =>
  new Promise<Probe>((resolve) => {
    server.proc.once('message', (answer) => resolve(answer as Probe));
    server.proc.send!(message);
  });
const post = (url: string, body: unknown, method = 'POST') =>
  fetch(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Health checks every 20 ms, one at a time, until `until` resolves: their latencies in ms. */
async function healthWhile(until: Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  let done = false;
  void until.then(() => (done = true));
  while (!done) {
    const started = performance.now();
    await (await fetch(`${server.url}/_fakehands/health`)).text();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return latencies;
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const summary = (latencies: number[], probe: Probe) => ({
  checks: latencies.length,
  'health p50 ms': round(percentile(latencies, 50)),
  'health p99 ms': round(percentile(latencies, 99)),
  'health max ms': round(Math.max(...latencies)),
  'loop p99 ms': round(probe.p99Ms),
  'longest turn ms (wall / CPU)': `${round(probe.maxMs, 1)} / ${round(probe.maxCpuMs, 1)}`,
});

try {
  const answer = Array.from({ length: TOKENS }, (_, i) => `word${i}`).join(' ');
  await post(`${server.url}/_fakehands/agent-scripts`, { scripts: [{ steps: [{ message: answer }] }] }, 'PUT');
  const conversations = [];
  for (let i = 0; i < CONVERSATIONS; i++)
    conversations.push(
      (await (await post(`${server.url}/_fakehands/replay`, { events: [], speed: 'instant' })).json()) as {
        conversation_id: string;
        conversation_url: string;
      },
    );
  let frames = 0;
  let finished = 0;
  let allFinished: () => void = () => undefined;
  const streamed = new Promise<void>((resolve) => (allFinished = resolve));
  const sockets = await Promise.all(
    conversations.map(
      (c) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(
            `${c.conversation_url.replace(/^http/, 'ws').replace(/\/api\/conversations\/.*$/, '')}/sockets/events/${c.conversation_id}`,
          );
          ws.on('message', (data) => {
            const text = String(data);
            if (text.includes('"StreamingDeltaEvent"')) frames++;
            else if (text.includes('"MessageEvent"') && text.includes(`word${TOKENS - 1}`) && ++finished === CONVERSATIONS) allFinished();
          });
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        }),
    ),
  );
  // The baseline: as long as the streams will take, nothing streaming.
  const seconds = TOKENS / RATE;
  await ask('reset');
  const idle = await healthWhile(new Promise((resolve) => setTimeout(resolve, seconds * 1000)));
  const idleProbe = await ask('read');
  await ask('reset');
  const started = performance.now();
  const loaded = healthWhile(streamed);
  await Promise.all(
    conversations.map((c) => post(`${c.conversation_url}/events`, { role: 'user', content: [{ type: 'text', text: 'go' }], run: true })),
  );
  const busy = await loaded;
  const busyProbe = await ask('read');
  for (const ws of sockets) ws.close();
  const baseline = summary(idle, idleProbe);
  const load = summary(busy, busyProbe);
  console.log(
    JSON.stringify(
      {
        conversations: CONVERSATIONS,
        tokens: TOKENS,
        tokens_per_second: RATE,
        'delta frames': frames,
        'streams took s': round((performance.now() - started) / 1000, 1),
        baseline,
        load,
        'health p99 × baseline': round(load['health p99 ms'] / baseline['health p99 ms']),
      },
      null,
      2,
    ),
  );
} finally {
  await server.stop();
}
