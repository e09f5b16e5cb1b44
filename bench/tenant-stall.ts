/**
 * Health while tenants are made (issue 29, finding 11): the server (from src, through tsx) in a
 * process of its own, 1,000 tenants created by a load process (50 at a time, each by its first
 * request), and `GET /_fakehands/health` probed every 5 ms from this process; the same probe with
 * no load first, as the baseline of the same run. Prints p99 and max of both, and their ratio.
 * Usage: npx tsx bench/tenant-stall.ts [TENANTS] [FIXTURE]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { round, spawnServer } from './lib.js';

const TENANTS = Number(process.argv[2] ?? 1000);
const FIXTURE = process.argv[3] ?? 'default';
const PROBE_EVERY_MS = 5;
const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

const SERVER = `
import { startFakeServers } from ${JSON.stringify(root('src/server.ts'))};
const { url } = await startFakeServers({ fake: { auth: 'none', timings: 'instant', fixture: ${JSON.stringify(FIXTURE)}, maxTenants: ${TENANTS + 10} } });
console.log('listening on ' + url);
`;
const LOAD = `
const [url, count] = [process.argv[1], Number(process.argv[2])];
let next = 0;
const worker = async () => { while (next < count) { const name = 't' + next++; const r = await fetch(url + '/api/v1/sandboxes/search', { headers: { 'x-fakehands-tenant': name } }); await r.arrayBuffer(); if (r.status !== 200) throw new Error(name + ': ' + r.status); } };
await Promise.all(Array.from({ length: 50 }, worker));
`;

const server = await spawnServer(['--import', 'tsx', '--input-type=module', '-e', SERVER]);
try {
  const probe = async (during: () => Promise<unknown>) => {
    const samples: number[] = [];
    let running = true;
    const prober = (async () => {
      while (running) {
        const started = performance.now();
        await fetch(`${server.url}/_fakehands/health`).then((r) => r.arrayBuffer());
        samples.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
      }
    })();
    const started = performance.now();
    await during();
    const ms = performance.now() - started;
    running = false;
    await prober;
    samples.sort((a, b) => a - b);
    return {
      p99: round(samples[Math.floor(samples.length * 0.99)] ?? 0, 1),
      max: round(samples.at(-1) ?? 0, 1),
      n: samples.length,
      ms: round(ms, 0),
    };
  };
  const created = () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', LOAD, server.url, String(TENANTS)], { stdio: 'inherit' });
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the load exited with ${code}`))));
    });
  // Warm up: the control API's routes and the tenant code load with their first requests.
  for (let i = 0; i < 20; i++)
    await fetch(`${server.url}/_fakehands/health`, { headers: { 'x-fakehands-tenant': i === 0 ? 'warm-up' : 'default' } }).then((r) =>
      r.arrayBuffer(),
    );
  const idle = await probe(() => new Promise((r) => setTimeout(r, 2000)));
  const load = await probe(created);
  console.log(`idle: health p99 ${idle.p99} ms · max ${idle.max} ms (${idle.n} probes)`);
  console.log(
    `${TENANTS} tenants (${FIXTURE} fixture) made in ${load.ms} ms: health p99 ${load.p99} ms · max ${load.max} ms (${load.n} probes) → p99 ${round(load.p99 / Math.max(idle.p99, 0.1), 1)}× idle`,
  );
} finally {
  await server.stop();
}
