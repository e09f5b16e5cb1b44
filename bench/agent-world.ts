/**
 * The standalone agent server (issue 31), as a share of bare `node:http` in the same run: conversation
 * create (`POST /api/conversations` on the agent host, when this build serves it), event search, a
 * host-wide read (`GET /api/settings`) and a shell command (`POST /api/bash/execute_bash_command`);
 * then the `/sockets/bash-events` fan-out (events delivered to 100 sockets per second) against a bare
 * `ws` broadcast of as many frames. Run: `npm run build && npx tsx bench/agent-world.ts`; writes
 * bench/results/agent-world.json. Each throughput row also gives requests per CPU-second of the server
 * process (its user + system time from /proc, Linux only): on a shared machine that moves less than
 * wall-clock requests per second, since time the server waits for a core is not counted. Each
 * server is loaded with a target for `BENCH_WARMUP_SECONDS` (1 s) before its rounds, not counted.
 * The rounds interleave, bare first and last (bare, fake, bare, … fake, bare: `BENCH_ROUNDS` of the
 * fake's between `BENCH_ROUNDS + 1` of the bare server's, `BENCH_SECONDS` each), and each share is
 * the median over every adjacent pair, so each fake round is set against the bare rounds on either
 * side of it rather than against seconds far from it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { load, median, round, spawnServer, type Target } from './lib.js';

/** Seconds of one round (one server loaded with one target). */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
/**
 * The fake's rounds per target, each between two of the bare server's; the median share over the
 * adjacent pairs is reported, so one burst of another job's load moves a pair or two, not the figure.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/**
 * Seconds each server is loaded with a target before its rounds, not counted (0: none): without it
 * the fake's first round ran its route cold (V8 compiles it as it goes: ~3,000 creates at 2-3× the
 * steady cost), while the bare server has almost nothing to compile.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const SOCKETS = 100;
const COMMANDS = 50;
const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/**
 * CPU seconds (user + system) a process has used so far: its threads' time on a CPU in nanoseconds
 * (/proc/PID/task/TID/schedstat; a round of 2 s is 100-180 clock ticks, coarse), else its clock
 * ticks from /proc/PID/stat; null where there is no /proc.
 */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    if (ns > 0) return ns / 1e9;
  } catch {
    // No schedstat: the clock ticks below.
  }
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
/** Loads `url` and counts the CPU time the server `pid` spent meanwhile: answers per wall second and per CPU second. */
async function measured(url: string, pid: number | undefined, t: Target) {
  const before = cpuSeconds(pid);
  const result = await load(url, t, SECONDS, CONNECTIONS);
  const after = cpuSeconds(pid);
  const cpu = before === null || after === null ? null : after - before;
  return { ...result, rps: result.count / result.seconds, perCpuSecond: cpu ? result.count / cpu : null };
}

const agentPort = await freePort();
const fake = await spawnServer([
  root('bin/fakehands.js'),
  'serve',
  '--port',
  '0',
  '--agent-port',
  String(agentPort),
  '--quiet',
  '--timings',
  'instant',
  '--auth',
  'none',
  '--fixture',
  'empty',
]);
const agentUrl = `http://127.0.0.1:${agentPort}`;
const rows: Record<string, unknown>[] = [];
let fanOut: Record<string, unknown> = {};
try {
  // A conversation started through the app server, with a few events, for the event search.
  const task = (await (
    await fetch(`${fake.url}/api/v1/app-conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'bench' }] } }),
    })
  ).json()) as { id: string };
  const [ready] = (await (await fetch(`${fake.url}/api/v1/app-conversations/start-tasks?ids=${task.id}`)).json()) as {
    app_conversation_id: string;
  }[];
  const [conversation] = (await (await fetch(`${fake.url}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`)).json()) as {
    id: string;
    session_api_key: string;
  }[];
  const key = { 'x-session-api-key': conversation!.session_api_key };
  const createBody = JSON.stringify({
    agent: { kind: 'Agent', llm: { model: 'anthropic/claude-sonnet-4-5-20250929' }, tools: [] },
    workspace: { kind: 'LocalWorkspace', working_dir: '/home/openhands/workspace' },
  });
  const create = await fetch(`${agentUrl}/api/conversations`, {
    method: 'POST',
    headers: { ...key, 'content-type': 'application/json' },
    body: createBody,
  });
  // Create last: the fake is reset before each of its rounds (below), which drops the search's conversation.
  const targets: [string, Target][] = [
    ['event search', { method: 'GET', path: `/api/conversations/${conversation!.id}/events/search?limit=20`, headers: key }],
    ['GET /api/settings', { method: 'GET', path: '/api/settings', headers: key }],
    [
      'bash execute',
      { method: 'POST', path: '/api/bash/execute_bash_command', body: JSON.stringify({ command: 'echo hi' }), headers: key },
    ],
    ...(create.ok
      ? [['conversation create', { method: 'POST', path: '/api/conversations', body: createBody, headers: key }] as [string, Target]]
      : []),
  ];
  /**
   * Empties the fake before a round of creates, outside the measured seconds: a fast machine makes
   * ~25,000 creates a second, and 171,000 conversations fill the default store (--max-store-mb 512),
   * after which every create is refused with a 507; each round measures creates on a store that has room.
   */
  const makeRoom = async (t: Target) => {
    if (t.path !== '/api/conversations') return;
    const reset = await fetch(`${fake.url}/_fakehands/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    if (!reset.ok) throw new Error(`the fake's reset answered ${reset.status}`);
  };
  if (!create.ok)
    console.log(
      `  conversation create: POST /api/conversations answers ${create.status} in this build (the conversation routes come with their own branch); not measured`,
    );
  // The bare server answers each path with the fake's own body.
  const bodies: Record<string, string> = {};
  for (const [, t] of targets)
    bodies[`${t.method} ${t.path.split('?')[0]}`] = await (
      await fetch(`${agentUrl}${t.path}`, { method: t.method, headers: { ...t.headers, 'content-type': 'application/json' }, body: t.body })
    ).text();
  await fetch(`${agentUrl}/api/bash/bash_events`, { method: 'DELETE', headers: key });
  const dir = await mkdtemp(join(tmpdir(), 'fakehands-bench-'));
  await writeFile(join(dir, 'bodies.json'), JSON.stringify(bodies));
  const bare = await spawnServer([root('bench/servers/bare.mjs'), join(dir, 'bodies.json')]);
  try {
    for (const [name, t] of targets) {
      if (WARMUP_SECONDS > 0) {
        await load(bare.url, t, WARMUP_SECONDS, CONNECTIONS);
        await makeRoom(t);
        await load(agentUrl, t, WARMUP_SECONDS, CONNECTIONS);
      }
      // bare, fake, bare, … fake, bare: every adjacent pair is a round of the share.
      const bares = [await measured(bare.url, bare.proc.pid, t)];
      const rounds: { base: Awaited<ReturnType<typeof measured>>; ours: Awaited<ReturnType<typeof measured>> }[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        await makeRoom(t);
        const ours = await measured(agentUrl, fake.proc.pid, t);
        bares.push(await measured(bare.url, bare.proc.pid, t));
        rounds.push({ base: bares[i]!, ours }, { base: bares[i + 1]!, ours });
      }
      // The round whose share is the median stands for the target.
      const byShare = [...rounds].sort((a, b) => a.ours.rps / a.base.rps - b.ours.rps / b.base.rps);
      const { base, ours } = byShare[byShare.length >> 1]!;
      const cpuShares = rounds
        .map((r) => (r.base.perCpuSecond && r.ours.perCpuSecond ? r.ours.perCpuSecond / r.base.perCpuSecond : null))
        .filter((x): x is number => x !== null);
      const cpuShare = cpuShares.length > 0 ? median(cpuShares) : null;
      rows.push({
        name,
        bareRps: round(base.rps, 0),
        fakeRps: round(ours.rps, 0),
        share: round(ours.rps / base.rps, 3),
        shares: rounds.map((r) => round(r.ours.rps / r.base.rps, 3)),
        barePerCpuSecond: base.perCpuSecond === null ? null : round(base.perCpuSecond, 0),
        fakePerCpuSecond: ours.perCpuSecond === null ? null : round(ours.perCpuSecond, 0),
        cpuShare: cpuShare === null ? null : round(cpuShare, 3),
        cpuShares: cpuShares.map((x) => round(x, 3)),
        fakeP99Ms: ours.p99,
        non2xx: rounds.reduce((sum, r, i) => sum + (i % 2 === 0 ? r.ours.non2xx : 0), 0),
      });
      const spread = (xs: number[]) => `${round(100 * Math.min(...xs), 1)}–${round(100 * Math.max(...xs), 1)}%`;
      console.log(
        `  ${name}: bare ${round(base.rps, 0)} req/s · fakehands ${round(ours.rps, 0)} req/s = ${round((100 * ours.rps) / base.rps, 1)}% (median of ${rounds.length} adjacent pairs, ${spread(rounds.map((r) => r.ours.rps / r.base.rps))})` +
          (cpuShare === null
            ? ''
            : `; per CPU-second: median ${round(100 * cpuShare, 1)}% (${spread(cpuShares)}; bare ${round(median(bares.map((b) => b.perCpuSecond ?? 0)), 0)} · fakehands ${round(median(rounds.filter((_, i) => i % 2 === 0).map((r) => r.ours.perCpuSecond ?? 0)), 0)} req per CPU-second, medians)`) +
          ` (p99 ${ours.p99} ms, non-2xx ${rounds.reduce((sum, r, i) => sum + (i % 2 === 0 ? r.ours.non2xx : 0), 0)})`,
      );
      if (t.path === '/api/bash/execute_bash_command') await fetch(`${agentUrl}/api/bash/bash_events`, { method: 'DELETE', headers: key });
    }
  } finally {
    await bare.stop();
  }

  // Fan-out: 100 sockets on /sockets/bash-events, 50 commands of two events each.
  const open = async (url: string) => {
    const received = new Array<number>(SOCKETS).fill(0);
    const sockets = await Promise.all(
      Array.from(
        { length: SOCKETS },
        (_, i) =>
          new Promise<WebSocket>((resolve) => {
            const socket = new WebSocket(url);
            socket.on('message', () => {
              received[i]!++;
            });
            socket.on('open', () => resolve(socket));
          }),
      ),
    );
    const until = async (n: number) => {
      while (received.some((r) => r < n)) await new Promise((r) => setTimeout(r, 2));
    };
    return { sockets, until };
  };
  const listening = await open(`ws://127.0.0.1:${agentPort}/sockets/bash-events`);
  await new Promise((r) => setTimeout(r, 200));
  let started = performance.now();
  await Promise.all(
    Array.from({ length: COMMANDS }, (_, i) =>
      fetch(`${agentUrl}/api/bash/execute_bash_command`, {
        method: 'POST',
        headers: { ...key, 'content-type': 'application/json' },
        body: JSON.stringify({ command: `echo ${i}` }),
      }),
    ),
  );
  await listening.until(2 * COMMANDS);
  const fakeRate = (SOCKETS * 2 * COMMANDS) / ((performance.now() - started) / 1000);
  for (const s of listening.sockets) s.close();
  const bareWs = await spawnServer([root('bench/servers/bare-ws.mjs')]);
  let bareRate = 0;
  try {
    const bareListening = await open(bareWs.url.replace('http', 'ws'));
    started = performance.now();
    bareListening.sockets[0]!.send(`go ${2 * COMMANDS} 200`);
    await bareListening.until(2 * COMMANDS);
    bareRate = (SOCKETS * 2 * COMMANDS) / ((performance.now() - started) / 1000);
    for (const s of bareListening.sockets) s.close();
  } finally {
    await bareWs.stop();
  }
  fanOut = {
    sockets: SOCKETS,
    events: 2 * COMMANDS,
    fakeEventsPerSecond: round(fakeRate, 0),
    bareEventsPerSecond: round(bareRate, 0),
    share: round(fakeRate / bareRate, 3),
  };
  console.log(
    `  bash-events fan-out: bare ws ${round(bareRate, 0)} events/s · fakehands ${round(fakeRate, 0)} events/s = ${round((100 * fakeRate) / bareRate, 1)}% (${SOCKETS} sockets, ${COMMANDS} commands of 2 events)`,
  );
} finally {
  await fake.stop();
}
await mkdir(root('bench/results'), { recursive: true });
await writeFile(
  root('bench/results/agent-world.json'),
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, seconds: SECONDS, rounds: ROUNDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, throughput: rows, fanOut }, null, 2)}\n`,
);
