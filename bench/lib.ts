/** Shared helpers of the benchmark suite: child servers, load runs, statistics. */
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';

/** A server under test, running in its own process. */
export interface ChildServer {
  url: string;
  proc: ChildProcess;
  /** Milliseconds from spawn to the listening line. */
  startedMs: number;
  stop(): Promise<void>;
}

/** Spawns `node args…` and resolves once it prints `listening on URL` (`ipc`: with a channel to it, `proc.send`). */
export function spawnServer(args: string[], env: Record<string, string> = {}, ipc = false): Promise<ChildServer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, {
      stdio: ipc ? ['ignore', 'pipe', 'inherit', 'ipc'] : ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${args.join(' ')}`)), 60_000);
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      proc.stdout!.removeAllListeners('data');
      proc.stdout!.resume();
      resolve({
        url: match[1]!,
        proc,
        startedMs: performance.now() - started,
        stop: () =>
          new Promise((done) => {
            proc.once('exit', () => done());
            proc.kill('SIGKILL');
          }),
      });
    });
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}: ${args.join(' ')}`)));
  });
}

/** One request shape to load a server with. */
export interface Target {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/** What a bounded load run measured. */
export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Answers completed in the run. */
  count: number;
  /** How long the run lasted, in seconds. */
  seconds: number;
}

/** Loads `url` with `target` for `seconds` with `connections` connections (127.0.0.1 only). */
export async function load(url: string, target: Target, seconds: number, connections: number): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) throw new Error(`refusing to load ${url}: benchmarks only target 127.0.0.1`);
  const result = await autocannon({
    url: `${url}${target.path}`,
    method: target.method,
    body: target.body,
    headers: { 'content-type': 'application/json', ...target.headers },
    duration: seconds,
    connections,
    pipelining: 1,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    count: result.requests.total,
    seconds: result.duration,
  };
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Rounds for display. */
export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
