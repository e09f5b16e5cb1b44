/**
 * Test support: the real `fakehands` binary as a child process on an ephemeral port.
 * Every started process is killed after each test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

/** Path of the binary under test (compiled JavaScript, as users run it). */
export const BIN = fileURLToPath(new URL('../../bin/fakehands.js', import.meta.url));

/** A running CLI. */
export interface RunningCli {
  /** `http://127.0.0.1:PORT`, read from the listening line. */
  url: string;
  /** The agent server's URL, read from its banner line. */
  agentUrl: string;
  proc: ChildProcess;
  /** Everything printed on stdout so far. */
  stdout(): string;
  /** Everything printed on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

const running = new Set<ChildProcess>();

/**
 * Kills every process started for a test (not those started `forSuite`). Registered here after each
 * test; files that share modules (`isolate: false`, vitest.config.ts) load this module once per
 * worker, so the 'shared-modules' project registers it again per file (test/support/stop-started.ts).
 */
export function stopStarted(): void {
  for (const proc of running) proc.kill('SIGKILL');
  running.clear();
}
afterEach(stopStarted);

/** Runs the binary to completion (for options that make it exit). */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(proc);
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    proc.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    // 'close', not 'exit': the process may end before its last output has been read from the pipes.
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts `fakehands serve --port 0 …` and resolves once it prints its listening line. It is killed
 * after the test, unless `forSuite` (then the caller kills `proc` in its `afterAll`).
 */
export function startCli(args: string[] = [], env: Record<string, string> = {}, { forSuite = false } = {}): Promise<RunningCli> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [BIN, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (!forSuite) running.add(proc);
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((done) => proc.on('close', (code) => done(code)));
    const timer = setTimeout(() => reject(new Error(`fakehands did not start: ${stderr}`)), 15_000);
    proc.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    proc.stdout.on('data', (d: Buffer) => {
      stdout += d;
      const match = /^fakehands listening on (http:\/\/\S+)$/m.exec(stdout);
      const agent = /^agent server: (http:\/\/\S+)/m.exec(stdout);
      // With --log json the banner is one JSON line.
      const json = /^\{"level":"info","msg":"listening",.*\}$/m.exec(stdout);
      const banner = json ? (JSON.parse(json[0]) as { url: string; agent_url: string }) : null;
      if ((match && agent && stdout.includes('control API:')) || banner) {
        clearTimeout(timer);
        resolve({
          url: banner?.url ?? match![1]!,
          agentUrl: banner?.agent_url ?? agent![1]!,
          proc,
          stdout: () => stdout,
          stderr: () => stderr,
          exited,
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`fakehands exited with ${code} before listening: ${stderr}`));
    });
  });
}

/** Waits until `predicate` holds, checking every 20 ms, for at most `ms`. */
export async function eventually(predicate: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
