/**
 * A session with the real agent server (openhands-agent-server, pinned in real/requirements/),
 * its agent driven by the scripted LLM, recorded through `fakehands record` as the README's recipe
 * prints it, then served by `fakehands serve --from-recording` as the recipe prints it: the
 * conversation list, each conversation, its events and a socket's resend, as the real server
 * answered them through the proxy, compared with what the served fake answers (status and body
 * shape, event by event, frame by frame: `src/real/compare.ts`). The facts count in the `real:` line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_PACKAGES } from '../../src/real/provision.js';
import type { RealServer } from '../../src/real/processes.js';
import { REAL_SESSION_KEY, startRealAgentServer } from '../../src/real/servers.js';
import { startLlmServer, type LlmServer } from '../../src/server/llm-server.js';
import { BIN } from '../support/cli.js';
import { README, readmeBlocks } from '../support/readme.js';
import {
  type Answered,
  call,
  compareAnswers,
  compareSequences,
  compareServer,
  eventName,
  type Target,
  until,
  writeFacts,
} from './support.js';
import WebSocket from 'ws';

/** The scripts the real agent plays through the scripted LLM (and the compared fake plays itself). */
const SCRIPTS = [
  { match: 'say hello', steps: [{ terminal: { command: 'echo hello', output: 'hello' } }, { finish: 'Said hello.' }] },
  { match: 'just answer', steps: [{ message: 'Here is the answer.' }] },
  { match: 'think first', steps: [{ think: 'Let me think.' }, { finish: 'Thought it through.' }] },
];
const MESSAGES = ['Please say hello', 'Please just answer', 'Please think first'];

compareServer('agent server');

const dir = mkdtempSync(join(tmpdir(), 'fakehands-real-record-'));
const workDir = mkdtempSync(join(tmpdir(), 'fakehands-real-record-work-'));
const session = join(dir, 'session');
const scriptsFile = join(dir, 'scripts.json');
let llm: LlmServer;
let real: RealServer;
const started: ChildProcess[] = [];

/** The README's recipe: its commands, by what they run. */
const recipe = README.slice(README.indexOf('## Record a real session'));
const block = readmeBlocks('sh').find((code) => recipe.includes(code) && code.includes('fakehands record'))!;
const commandOf = (name: string) => {
  const line = block.split('\n').find((l) => l.startsWith(`npx fakehands ${name} `))!;
  return line
    .replace(/\s+#.*$/, '')
    .replace('npx fakehands ', '')
    .replaceAll('http://127.0.0.1:8000', real.url)
    .replaceAll('scripts.json', scriptsFile)
    .replace(/(--out|--from-recording) session\b/, `$1 ${session}`)
    .split(' ');
};

/** Starts the built command with `args`; resolves once its stdout matches `ready`, with what it printed. */
function startCommand(args: string[], ready: RegExp): Promise<{ proc: ChildProcess; stdout: () => string }> {
  const proc = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(proc);
  let stdout = '';
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fakehands ${args.join(' ')} did not start: ${stderr}`)), 60_000);
    proc.stdout!.on('data', (d: Buffer) => {
      stdout += d;
      if (ready.test(stdout)) {
        clearTimeout(timer);
        resolve({ proc, stdout: () => stdout });
      }
    });
  });
}

/** The frames a socket receives until `quietMs` pass without one. */
async function frames(url: string, quietMs = 1500): Promise<Record<string, unknown>[]> {
  const socket = new WebSocket(url);
  const got: Record<string, unknown>[] = [];
  await new Promise<void>((resolve) => {
    let timer = setTimeout(resolve, quietMs * 2);
    socket.on('message', (data) => {
      got.push(JSON.parse(String(data)) as Record<string, unknown>);
      clearTimeout(timer);
      timer = setTimeout(resolve, quietMs);
    });
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
  });
  socket.close();
  return got;
}

/** What the real server answered through the proxy, step by step; then what the served fake answers. */
const recorded = new Map<string, Answered>();
const recordedFrames = new Map<string, Record<string, unknown>[]>();
const ids: string[] = [];
let served: Target;
let compareSummary = '';

beforeAll(async () => {
  writeFileSync(scriptsFile, JSON.stringify(SCRIPTS));
  llm = await startLlmServer({ scripts: SCRIPTS });
  real = await startRealAgentServer({ log: (line) => process.stderr.write(`${line}\n`) });
  const recorder = await startCommand(commandOf('record'), /^comparing .*\n/m);
  const proxy: Target = { side: 'real', url: /listening on (\S+)/.exec(recorder.stdout())![1]!, key: REAL_SESSION_KEY };
  for (const text of MESSAGES) {
    const created = await call(proxy, 'POST', '/api/conversations', {
      agent: {
        kind: 'Agent',
        llm: { model: 'openai/fakehands', base_url: `${llm.url}/v1`, api_key: 'sk-fakehands', num_retries: 0 },
        tools: [{ name: 'terminal' }, { name: 'file_editor' }, { name: 'task_tracker' }],
      },
      workspace: { working_dir: workDir },
    });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    ids.push(id);
    await call(proxy, 'POST', `/api/conversations/${id}/events`, { role: 'user', content: [{ type: 'text', text }], run: true });
    await until(
      async () => ((await call(proxy, 'GET', `/api/conversations/${id}`)).body as { execution_status: string }).execution_status,
      (s) => s !== 'running' && s !== 'idle',
    );
  }
  recorded.set('GET /api/conversations/search', await call(proxy, 'GET', '/api/conversations/search?limit=100'));
  recorded.set('GET /api/conversations/count', await call(proxy, 'GET', '/api/conversations/count'));
  for (const id of ids) {
    recorded.set(`GET /api/conversations/${id}`, await call(proxy, 'GET', `/api/conversations/${id}`));
    recorded.set(
      `GET /api/conversations/${id}/events/search`,
      await call(proxy, 'GET', `/api/conversations/${id}/events/search?limit=100`),
    );
    recordedFrames.set(
      id,
      await frames(`${proxy.url.replace(/^http/, 'ws')}/sockets/events/${id}?session_api_key=${REAL_SESSION_KEY}&resend_mode=all`),
    );
  }
  const stopped = new Promise((resolve) => recorder.proc.on('close', resolve));
  recorder.proc.kill('SIGINT');
  await stopped;
  compareSummary = /compare: .*/.exec(recorder.stdout())?.[0] ?? '';
  const server = await startCommand([...commandOf('serve'), '--port', '0', '--agent-port', '0', '--quiet'], /^agent server: /m);
  served = { side: 'fake', url: /^agent server: (\S+)/m.exec(server.stdout())![1]!, key: 'fakehands-dev-key' };
}, 900_000);

afterAll(async () => {
  writeFacts(import.meta.filename, { 'agent server': REAL_PACKAGES['agent-server'].version });
  for (const proc of started) proc.kill('SIGKILL');
  await Promise.all([real?.stop(), llm?.close()]);
  for (const folder of [dir, workDir]) rmSync(folder, { recursive: true, force: true });
});

describe('a recorded session served by the fake', () => {
  it('was recorded with its --compare report', () => {
    expect(compareSummary).toMatch(/^compare: \d+\/\d+ facts agree, \d+ difference\(s\) \(\d+ declared\) in /);
    process.stderr.write(`record --compare of the real session: ${compareSummary}\n`);
    // Each socket's events were compared with the fake's socket too: they differ only as the suite declares.
    const facts = readFileSync(join(session, 'differences.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; declared: string | null });
    const socket = facts.filter((f) => f.id.includes('› socket /sockets/events/{id} › frames'));
    // The real agent's statistics updates, which the fake's scripts do not publish, are among them (declared).
    expect(socket.map((f) => f.id)).toContain('agent server › socket /sockets/events/{id} › frames › stats updates published');
    expect(socket.filter((f) => f.declared === null)).toEqual([]);
  });

  it('lists and counts the conversations as the real server did', async () => {
    const differences: string[] = [];
    for (const path of ['/api/conversations/search', '/api/conversations/count']) {
      const fake = await call(served, 'GET', path === '/api/conversations/search' ? `${path}?limit=100` : path);
      differences.push(...compareAnswers(`served recording › GET ${path}`, recorded.get(`GET ${path}`)!, fake));
    }
    const list = (await call(served, 'GET', '/api/conversations/search?limit=100')).body as { items: { id: string }[] };
    expect(list.items.map((c) => c.id).sort()).toEqual([...ids].sort());
    expect(differences).toEqual([]);
  });

  it('answers each conversation and its events as the real server did, event by event', async () => {
    const differences: string[] = [];
    for (const [i, id] of ids.entries()) {
      const info = await call(served, 'GET', `/api/conversations/${id}`);
      differences.push(
        ...compareAnswers(
          `served recording › GET /api/conversations/{id} (${MESSAGES[i]})`,
          recorded.get(`GET /api/conversations/${id}`)!,
          info,
        ),
      );
      const events = await call(served, 'GET', `/api/conversations/${id}/events/search?limit=100`);
      const real = recorded.get(`GET /api/conversations/${id}/events/search`)!;
      differences.push(...compareAnswers(`served recording › GET /api/conversations/{id}/events/search (${MESSAGES[i]})`, real, events));
      const names = (answer: Answered) => ((answer.body as { items: Record<string, unknown>[] }).items ?? []).map(eventName);
      differences.push(...compareSequences(`served recording › events (${MESSAGES[i]})`, names(real), names(events)));
    }
    expect(differences).toEqual([]);
  });

  it("resends each conversation's frames on a socket as the real server did", async () => {
    const differences: string[] = [];
    for (const [i, id] of ids.entries()) {
      const fake = await frames(`${served.url.replace(/^http/, 'ws')}/sockets/events/${id}?session_api_key=${served.key}&resend_mode=all`);
      const real = recordedFrames.get(id)!;
      differences.push(
        ...compareSequences(`served recording › socket resend (${MESSAGES[i]}) › frames`, real.map(eventName), fake.map(eventName)),
      );
      // The full state first (made per connection: compared by shape), then each frame the recorded event.
      for (let at = 0; at < Math.max(real.length, fake.length); at++)
        differences.push(
          ...compareAnswers(
            `served recording › socket resend (${MESSAGES[i]}) › frame`,
            { status: 101, body: real[at] ?? null },
            { status: 101, body: fake[at] ?? null },
          ),
        );
    }
    expect(differences).toEqual([]);
  });
});
