/**
 * One scripted session on the real agent server and on the fake's agent host, in the same run:
 * start-up (process spawn to ready: the real `agent-server` on loopback answering /ready; `fakehands serve` printing where it listens) and
 * the session (a conversation created, a message sent, a terminal command and finish, until the
 * event `execution_status=finished` is in the log), each as a ratio real / fake. The real agent
 * calls fakehands' scripted LLM, the fake's agent plays the same script on a system clock with
 * instant timings. Rounds alternate real and fake (`BENCH_ROUNDS`, default 3) and the medians are
 * reported. Needs the real agent server installed (`npm run real:install`). Run:
 * `npm run bench:real` (builds first); writes bench/results/real-session.json.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRealAgentServer } from '../src/real/servers.js';
import { REAL_PACKAGES } from '../src/real/provision.js';
import { startLlmServer } from '../src/server/llm-server.js';
import { median, round } from './lib.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The fakehands command (built: `npm run build`). */
const BIN = new URL('../bin/fakehands.js', import.meta.url).pathname;
const SCRIPT = [{ match: 'say hello', steps: [{ terminal: { command: 'echo hello', output: 'hello' } }, { finish: 'Said hello.' }] }];

/** A JSON request with a key. */
async function call(url: string, key: string, method: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', 'X-Session-API-Key': key },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Milliseconds from a conversation's create to its log's last event `execution_status=finished`. */
async function session(agentUrl: string, key: string, llmUrl: string): Promise<number> {
  const started = performance.now();
  const created = await call(`${agentUrl}/api/conversations`, key, 'POST', {
    agent: {
      kind: 'Agent',
      llm: { model: 'openai/fakehands', base_url: `${llmUrl}/v1`, api_key: 'any', num_retries: 0 },
      tools: [{ name: 'terminal' }],
    },
    workspace: { working_dir: mkdtempSync(join(tmpdir(), 'fakehands-bench-')) },
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}`);
  const id = String(created.body.id);
  await call(`${agentUrl}/api/conversations/${id}/events`, key, 'POST', {
    role: 'user',
    content: [{ type: 'text', text: 'Please say hello' }],
    run: true,
  });
  for (;;) {
    // The newest few: the real server may publish a statistics update after the final status.
    const page = await call(`${agentUrl}/api/conversations/${id}/events/search?sort_order=TIMESTAMP_DESC&limit=5`, key, 'GET');
    const newest = page.body.items as Record<string, unknown>[];
    if (newest.some((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'execution_status' && e.value === 'finished')) break;
    if (performance.now() - started > 120_000) throw new Error('the session did not finish in 120 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - started;
}

/** A fake's agent server (a RUNNING sandbox's) with its key, and the time from spawning `fakehands serve` to its banner. */
async function startFake(): Promise<{ url: string; key: string; startMs: number; close: () => Promise<void> }> {
  const scripts = join(mkdtempSync(join(tmpdir(), 'fakehands-bench-')), 'scripts.json');
  await writeFile(scripts, JSON.stringify(SCRIPT));
  const t = performance.now();
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--timings', 'instant', '--fixture', 'empty', '--agent-scripts', scripts],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let banner = '';
  const urls = await new Promise<{ app: string; agent: string }>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const app = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
      const agent = /agent server: (http:\/\/\S+)/.exec(banner)?.[1];
      if (app && agent) resolve({ app, agent });
    });
    child.once('exit', (code) => reject(new Error(`fakehands serve exited (${code}): ${banner}`)));
  });
  const startMs = performance.now() - t;
  const sandbox = await call(`${urls.app}/api/v1/sandboxes`, 'unused', 'POST', {});
  const [running] = (await call(`${urls.app}/api/v1/sandboxes?id=${String(sandbox.body.id)}`, 'unused', 'GET')).body as unknown as {
    session_api_key: string;
  }[];
  const close = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url: urls.agent, key: running!.session_api_key, startMs, close };
}

const llm = await startLlmServer({ scripts: SCRIPT });
const rows: { real: { start: number; session: number }; fake: { start: number; session: number } }[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const t = performance.now();
  const real = await startRealAgentServer();
  const realStart = performance.now() - t;
  const realSession = await session(real.url, real.key!, llm.url);
  await real.stop();
  const fake = await startFake();
  const fakeSession = await session(fake.url, fake.key, llm.url);
  await fake.close();
  rows.push({ real: { start: realStart, session: realSession }, fake: { start: fake.startMs, session: fakeSession } });
  process.stdout.write(
    `round ${i + 1}: start real ${round(realStart)} ms, fake ${round(fake.startMs)} ms; session real ${round(realSession)} ms, fake ${round(fakeSession)} ms\n`,
  );
}
await llm.close();
const summary = {
  agent_server: REAL_PACKAGES['agent-server'].version,
  rounds: ROUNDS,
  start_ms: { real: round(median(rows.map((r) => r.real.start))), fake: round(median(rows.map((r) => r.fake.start))) },
  session_ms: { real: round(median(rows.map((r) => r.real.session))), fake: round(median(rows.map((r) => r.fake.session))) },
  start_ratio: round(median(rows.map((r) => r.real.start / r.fake.start))),
  session_ratio: round(median(rows.map((r) => r.real.session / r.fake.session))),
  rows,
};
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(new URL('./results/real-session.json', import.meta.url), `${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(
  `start-up: real ${summary.start_ms.real} ms, fake ${summary.start_ms.fake} ms (real/fake ${summary.start_ratio}×); session to its last event: real ${summary.session_ms.real} ms, fake ${summary.session_ms.fake} ms (${summary.session_ratio}×)\n`,
);
