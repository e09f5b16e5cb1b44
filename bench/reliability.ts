/**
 * `npm run bench:reliability`: the loads that once grew memory without bound or held the event loop,
 * at full scale, each against a fresh `fakehands serve` (127.0.0.1 only). Per load: the server's
 * longest turn of its event loop (wall time, and CPU time of its main thread: the preload
 * `bench/servers/loop-delay.mjs`), its memory after a full GC before and after the load, and what
 * the load saw (kept counts, refusals, the slowest answer). The bounds themselves are asserted in
 * test/reliability/bounded-*.test.ts; here only figures, against the goal of no turn over 50 ms.
 *
 * Usage: npm run build && npx tsx bench/reliability.ts [LOAD ...]
 * BENCH_FAKEHANDS=/other/checkout/bin/fakehands.js measures another build (a "before").
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { zipSync, strToU8 } from 'fflate';
import WebSocket from 'ws';
import { round, spawnServer, type ChildServer } from './lib.js';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const BIN = process.env.BENCH_FAKEHANDS ?? root('bin/fakehands.js');
const MB = 1_000_000;

/** What the preload reports. */
interface Probe {
  maxMs: number;
  maxCpuMs: number;
  rssMb: number;
  heapMb: number;
}
type Row = Record<string, string | number>;
type Json = Record<string, unknown>;

/** A fresh server with the loop preload; `ask` talks to the preload. */
async function serve(extra: string[] = []): Promise<{ server: ChildServer; ask: (m: 'reset' | 'read') => Promise<Probe> }> {
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
      '--timings',
      'instant',
      ...extra,
    ],
    {},
    true,
  );
  const ask = (message: 'reset' | 'read') =>
    new Promise<Probe>((resolve) => {
      server.proc.once('message', (answer) => resolve(answer as Probe));
      server.proc.send!(message);
    });
  return { server, ask };
}

/** Calls `url` and reads the answer; its status, JSON (when it is), size and time. */
async function call(url: string, method = 'GET', body?: unknown) {
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    /* not JSON */
  }
  return { status: response.status, json, bytes: text.length, ms: performance.now() - started };
}

/** Runs `work` `count` times, `parallel` at a time. */
async function times(count: number, parallel: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** A conversation on the agent host (a replay of `events`, published at once): its id and its agent host's URL. */
async function replayed(url: string, events: Json[], speed: number | 'instant' = 'instant'): Promise<{ id: string; agent: string }> {
  const answer = await call(`${url}/_fakehands/replay`, 'POST', { events, speed });
  if (answer.status !== 201) throw new Error(`replay answered ${answer.status}`);
  return { id: String(answer.json.conversation_id), agent: String(answer.json.conversation_url).replace(/\/api\/conversations\/.*$/, '') };
}

const message = (i: number, text: string, source = i % 2 ? 'agent' : 'user') => ({
  kind: 'MessageEvent',
  id: `e${i}`,
  timestamp: '2026-12-02T08:00:00',
  source,
  llm_message: { role: source === 'agent' ? 'assistant' : 'user', content: [{ type: 'text', text }] },
});

/**
 * Each load: what it does to the server (`url` its app server, `agent` its agent host, found from a
 * conversation's URL) after `prepare`, and what it saw.
 */
const LOADS: Record<
  string,
  {
    label: string;
    flags?: string[];
    prepare?: (url: string, agent: string) => Promise<unknown>;
    run: (url: string, agent: string, prepared: unknown) => Promise<Row>;
  }
> = {
  'bash-history': {
    label: '1,800 bash commands of 1 MB (execute_bash_command, 4 at a time)',
    run: async (_url, agent) => {
      const command = `echo ${'x'.repeat(MB)}`;
      let slowest = 0;
      const statuses: Record<number, number> = {};
      await times(1_800, 4, async () => {
        const answer = await call(`${agent}/api/bash/execute_bash_command`, 'POST', { command });
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        slowest = Math.max(slowest, answer.ms);
      });
      return { statuses: JSON.stringify(statuses), 'slowest answer ms': round(slowest, 0) };
    },
  },
  'bash-resend': {
    label: '300 bash commands of 1 MB, then 3 sockets with resend_mode=all read to the end',
    prepare: async (_url, agent) => {
      await times(300, 4, () => call(`${agent}/api/bash/execute_bash_command`, 'POST', { command: `echo ${'x'.repeat(MB)}` }));
      return historySize(agent);
    },
    run: async (_url, agent, total) => resendTo(agent, 3, total as number),
  },
  'bash-resend-many': {
    label: '5,000 short bash commands (10,000 events), then 3 sockets with resend_mode=all',
    prepare: async (_url, agent) => {
      await times(5_000, 8, (i) => call(`${agent}/api/bash/execute_bash_command`, 'POST', { command: `echo line ${i}` }));
      return historySize(agent);
    },
    run: async (_url, agent, total) => resendTo(agent, 3, total as number),
  },
  oauth: {
    label: '2,000 MCP OAuth starts of 900 KB (tool call arguments)',
    run: async (_url, url) => {
      const body = {
        server: { type: 'http', url: 'https://mcp.example.com/mcp', auth: { strategy: 'oauth2' } },
        tool_call: { name: 'fetch', arguments: { blob: 'a'.repeat(900_000) } },
      };
      const ids: string[] = [];
      await times(2_000, 4, async () => ids.push(String((await call(`${url}/api/mcp/oauth/start`, 'POST', body)).json.job_id)));
      let kept = 0;
      for (const id of ids) if ((await call(`${url}/api/mcp/oauth/status/${id}`)).status === 200) kept++;
      return { 'jobs kept': kept };
    },
  },
  'stream-advance': {
    label: 'one clock advance past a streamed message of 110,000 tokens (serve --streaming)',
    flags: ['--streaming'],
    prepare: (url) => replayed(url, [message(0, 'go'), message(1, Array.from({ length: 110_000 }, (_, i) => `w${i % 10}`).join(' '))], 1),
    run: async (url) => {
      const answer = await call(`${url}/_fakehands/clock`, 'POST', { advance_ms: 3_000_000 });
      return { status: answer.status, 'advance ms': round(answer.ms, 0) };
    },
  },
  'stream-advance-socket': {
    label: 'the same, with a socket on the conversation receiving the 110,000 deltas',
    flags: ['--streaming'],
    prepare: (url) => replayed(url, [message(0, 'go'), message(1, Array.from({ length: 110_000 }, (_, i) => `w${i % 10}`).join(' '))], 1),
    run: async (url, _agent, prepared) => {
      const { id, agent } = prepared as { id: string; agent: string };
      const ws = new WebSocket(`${agent.replace('http', 'ws')}/sockets/events/${id}`);
      let frames = 0;
      let done: () => void = () => undefined;
      ws.on('message', (data) => {
        frames++;
        if (String(data).includes('"kind":"MessageEvent"') && String(data).includes('w9 w0')) done();
      });
      await new Promise((resolve) => ws.once('open', resolve));
      let closed = 'open';
      const finished = new Promise<void>((resolve) => {
        done = resolve;
        ws.once('close', (code, reason) => {
          closed = `${code} ${String(reason)}`;
          resolve();
        });
      });
      const answer = await call(`${url}/_fakehands/clock`, 'POST', { advance_ms: 3_000_000 });
      await finished;
      ws.close();
      return { status: answer.status, 'advance ms': round(answer.ms, 0), frames, socket: closed };
    },
  },
  workspaces: {
    label: '9,800 saved workspaces of 4,000-character paths (20 a request), then 10 lists',
    run: async (_url, url) => {
      const refused: Record<number, number> = {};
      let slowest = 0;
      for (let at = 0; at < 9_800; at += 20) {
        const workspaces = Array.from({ length: 20 }, (_, k) => {
          const path = `/w/${at + k}/${'p'.repeat(3_990)}`;
          return { id: path, name: `w${at + k}`, path };
        });
        const answer = await call(`${url}/api/workspaces`, 'POST', { workspaces });
        slowest = Math.max(slowest, answer.ms);
        refused[answer.status] = (refused[answer.status] ?? 0) + 1;
      }
      let list = { ms: 0, bytes: 0, json: {} as Json };
      for (let i = 0; i < 10; i++) list = await call(`${url}/api/workspaces`);
      return {
        'saves 200 / 507': `${refused[200] ?? 0} / ${refused[507] ?? 0}`,
        'slowest save ms': round(slowest, 0),
        kept: (list.json.workspaces as unknown[]).length,
        'list MB': round(list.bytes / MB, 1),
        'list ms': round(list.ms, 0),
      };
    },
  },
  'misc-settings': {
    label: '285 patches of 1,000 misc_settings keys (285,000 asked), then 20 reads',
    run: async (_url, url) => {
      const statuses: Record<number, number> = {};
      let slowest = 0;
      for (let at = 0; at < 285_000; at += 1_000) {
        const diff = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`key_${at + i}`, i]));
        const answer = await call(`${url}/api/settings`, 'PATCH', { misc_settings_diff: diff });
        slowest = Math.max(slowest, answer.ms);
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      }
      let read = { ms: 0, json: {} as Json };
      for (let i = 0; i < 20; i++) read = await call(`${url}/api/settings`);
      return {
        'patches 200 / 422': `${statuses[200] ?? 0} / ${statuses[422] ?? 0}`,
        'slowest patch ms': round(slowest, 0),
        keys: Object.keys(read.json.misc_settings as object).length,
        'read ms': round(read.ms, 0),
      };
    },
  },
  fork: {
    label: '10 forks of a conversation of 10,000 events',
    flags: ['--max-body-kb', '8192'],
    prepare: (url) =>
      replayed(
        url,
        Array.from({ length: 10_000 }, (_, i) => message(i, `message number ${i} with some words in it`)),
      ),
    run: async (_url, _agent, prepared) => {
      const { id, agent } = prepared as { id: string; agent: string };
      const ms: number[] = [];
      for (let i = 0; i < 10; i++) ms.push((await call(`${agent}/api/conversations/${id}/fork`, 'POST', {})).ms);
      return { 'fork ms (median / max)': `${round(ms.sort((a, b) => a - b)[5]!, 0)} / ${round(ms.at(-1)!, 0)}` };
    },
  },
  'replay-zip': {
    label: "10 replays of a 10,000-event conversation's downloaded ZIP (POST /_fakehands/replay/zip)",
    prepare: async () => {
      const files: Record<string, Uint8Array> = {};
      for (let i = 0; i < 10_000; i++)
        files[`events/event-${String(i).padStart(5, '0')}-e${i}.json`] = strToU8(
          JSON.stringify(message(i, `message number ${i} with some words in it`)),
        );
      return zipSync(files, { level: 6 });
    },
    run: async (url, _agent, zip) => {
      const ms: number[] = [];
      let status = 0;
      for (let i = 0; i < 10; i++) {
        const form = new FormData();
        form.append('file', new Blob([zip as Uint8Array<ArrayBuffer>]), 'conversation.zip');
        const started = performance.now();
        const answer = await fetch(`${url}/_fakehands/replay/zip?speed=instant`, { method: 'POST', body: form });
        await answer.text();
        ms.push(performance.now() - started);
        status = answer.status;
      }
      return {
        status,
        'archive MB': round((zip as Uint8Array).length / MB, 1),
        'replay ms (median / max)': `${round(ms.sort((a, b) => a - b)[5]!, 0)} / ${round(ms.at(-1)!, 0)}`,
      };
    },
  },
  'replay-events': {
    label: '10 replays of 10,000 events as JSON (POST /_fakehands/replay, no --max-body-kb)',
    run: async (url) => {
      const body = JSON.stringify({
        events: Array.from({ length: 10_000 }, (_, i) => message(i, `message number ${i} with some words in it`)),
        speed: 'instant',
      });
      const ms: number[] = [];
      let status = 0;
      for (let i = 0; i < 10; i++) {
        const answer = await call(`${url}/_fakehands/replay`, 'POST', body);
        ms.push(answer.ms);
        status = answer.status;
      }
      return {
        status,
        'body MB': round(body.length / MB, 1),
        'replay ms (median / max)': `${round(ms.sort((a, b) => a - b)[5]!, 0)} / ${round(ms.at(-1)!, 0)}`,
      };
    },
  },
  'replay-json': {
    label: '10 legacy creates with a replay_json of 330,000 {} (each refused)',
    flags: ['--max-body-kb', '8192'],
    run: async (url) => {
      const body = { replay_json: JSON.stringify(Array.from({ length: 330_000 }, () => ({}))) };
      let slowest = 0;
      let status = 0;
      for (let i = 0; i < 10; i++) {
        const answer = await call(`${url}/api/conversations`, 'POST', body);
        slowest = Math.max(slowest, answer.ms);
        status = answer.status;
      }
      return { status, 'slowest ms': round(slowest, 0) };
    },
  },
};

/** `count` sockets with resend_mode=all on the bash events, each read until it has the `total` events the history held. */
async function resendTo(url: string, count: number, total: number): Promise<Row> {
  const started = performance.now();
  const received = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<number>((resolve) => {
          const ws = new WebSocket(`${url.replace('http', 'ws')}/sockets/bash-events?resend_mode=all`);
          let frames = 0;
          ws.on('message', () => {
            if (++frames === total) {
              ws.close();
              resolve(frames);
            }
          });
          ws.on('error', () => resolve(frames));
        }),
    ),
  );
  return { 'history events': total, 'frames per socket': received.join(' / '), 'resend ms': round(performance.now() - started, 0) };
}

/** How many bash events the host keeps (paged through). */
async function historySize(url: string): Promise<number> {
  let count = 0;
  let page: string | null = null;
  do {
    const answer = await call(`${url}/api/bash/bash_events/search?limit=100${page ? `&page_id=${page}` : ''}`);
    count += (answer.json.items as unknown[]).length;
    page = (answer.json.next_page_id as string | null) ?? null;
  } while (page);
  return count;
}

/** `fakehands verify --messages` against a provider whose create never ends: how it ended, and its peak memory. */
async function verifyEndless(): Promise<Row> {
  let written = 0;
  const provider = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const more = () => {
      while (!response.destroyed) {
        written += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', more);
      }
    };
    response.write('[');
    more();
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'verify', '--messages', '--base-url', url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let peakMb = 0;
  const poll = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'latin1'));
      if (hwm) peakMb = Math.max(peakMb, Number(hwm[1]) / 1024);
    } catch {
      /* ended */
    }
  }, 20);
  // Its own time limit is minutes: this run stops it after 60 s.
  const limit = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(limit);
  clearInterval(poll);
  provider.closeAllConnections();
  provider.close();
  return {
    exit: String(code),
    's to end': round((performance.now() - started) / 1000, 1),
    'provider wrote MB': round(written / MB, 0),
    'peak RSS MB': round(peakMb, 0),
    says:
      output
        .split('\n')
        .find((line) => line.includes('16 MiB'))
        ?.trim()
        .slice(0, 200) ??
      output.trim().split('\n').at(-1) ??
      '',
  };
}

const only = process.argv.slice(2);
const rows: Row[] = [];
for (const [, load] of Object.entries(LOADS).filter(([n]) => only.length === 0 || only.includes(n))) {
  const { server, ask } = await serve(load.flags);
  try {
    const { agent } = await replayed(server.url, [message(0, 'hello')]);
    const prepared = await load.prepare?.(server.url, agent);
    const before = await ask('read');
    await ask('reset');
    const seen = await load.run(server.url, agent, prepared);
    const after = await ask('read');
    // What the host kept, read once the figures are taken (a page of 100 events of 1 MB is a 100 MB answer).
    const kept: Row = load.label.startsWith('1,800 bash') ? { 'events kept': await historySize(agent) } : {};
    const row = {
      load: load.label,
      'turn max ms (wall / CPU)': `${round(after.maxMs, 1)} / ${round(after.maxCpuMs, 1)}`,
      'RSS MB (before → after)': `${round(before.rssMb, 0)} → ${round(after.rssMb, 0)}`,
      'heap MB after GC (before → after)': `${round(before.heapMb, 0)} → ${round(after.heapMb, 0)}`,
      ...seen,
      ...kept,
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  } finally {
    await server.stop();
  }
}
if (only.length === 0 || only.includes('verify-endless')) {
  const row = { load: 'fakehands verify --messages against a create answer that never ends', ...(await verifyEndless()) };
  rows.push(row);
  console.log(JSON.stringify(row));
}
for (const row of rows)
  console.log(
    `| ${Object.entries(row)
      .map(([k, v]) => `${k}: ${v}`)
      .join(' | ')} |`,
  );
