/**
 * The real servers, started and stopped: each a child process on 127.0.0.1 at a free port, with
 * fresh temporary state (its home, conversations, workspace), its own process group so that
 * stopping it by PID also stops what it started (tmux, a sandbox's agent server), and its output
 * kept in a log file that a failed start quotes. Hand-written: spawning and signalling a process
 * group is a few calls of `node:child_process`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../server/start.js';

/** A real server running on loopback. */
export interface RealServer {
  /** Which one. */
  readonly name: string;
  /** Where it listens (`http://127.0.0.1:PORT`). */
  readonly url: string;
  /** The key it expects in `X-Session-API-Key` (`null`: none). */
  readonly key: string | null;
  /** Its process id (the leader of its process group). */
  readonly pid: number;
  /** Its temporary folder (home, state, workspace, `server.log`). */
  readonly dir: string;
  /** Stops it and everything it started, then removes its folder. */
  stop(): Promise<void>;
}

/** How to start one real server. */
export interface ProcessSpec {
  /** Its name, for errors. */
  name: string;
  /** The executable and its arguments (`{port}` is replaced by the port). */
  command: string;
  args: readonly string[];
  /** Its environment besides `PATH` (`{dir}` is replaced by its temporary folder, `{port}` by its port). */
  env: Readonly<Record<string, string>>;
  /** The folders made in its temporary folder before it starts. */
  folders?: readonly string[];
  /** The path that answers 200 once it is ready. */
  readyPath: string;
  /** The key it expects, if any. */
  key: string | null;
  /** Longest wait for it to be ready, in milliseconds. */
  readyTimeoutMs?: number;
}

/** How long a start may take (a real server imports hundreds of modules; a busy 2-core machine is slow). */
const DEFAULT_READY_TIMEOUT_MS = 180_000;
/** How long a stop waits after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 5_000;

const fill = (text: string, dir: string, port: number) => text.replaceAll('{dir}', dir).replaceAll('{port}', String(port));

/** A wait that keeps no process alive. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Whether a process (group) is still there. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signals a process group, then its leader alone (ignoring one already gone). */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(-pid, name);
  } catch {
    try {
      process.kill(pid, name);
    } catch {
      // Gone already.
    }
  }
}

/** Every process below `pid` (its children, theirs ...), read from `ps`: a server's children may start sessions of their own. */
function descendantsOf(pid: number): number[] {
  let table: string;
  try {
    table = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const line of table.trim().split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      found.push(c);
      walk(c);
    }
  };
  walk(pid);
  return found;
}

/** The variable every process a real server starts inherits (tmux servers and sandboxes leave the process tree, not the environment). */
const MARK = 'FAKEHANDS_REAL_DIR';

/** Every process whose environment carries the mark of `dir` (Linux's /proc; none elsewhere). */
function markedWith(dir: string): number[] {
  const wanted = `${MARK}=${dir}\0`;
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of entries) {
    try {
      if (`${readFileSync(`/proc/${name}/environ`, 'latin1')}\0`.includes(wanted)) found.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** Stops a process group and every descendant (a sandbox's agent server, its tmux): SIGTERM, then SIGKILL after the grace. */
async function stopGroup(child: ChildProcess, pid: number, dir: string): Promise<void> {
  const below = [...descendantsOf(pid), ...markedWith(dir)];
  for (const p of below) signal(p, 'SIGTERM');
  signal(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_GRACE_MS;
  while (child.exitCode === null && child.signalCode === null && Date.now() < deadline) await sleep(100);
  signal(pid, 'SIGKILL');
  for (const p of [...below, ...descendantsOf(pid), ...markedWith(dir)]) signal(p, 'SIGKILL');
}

/**
 * Starts a real server and waits until its ready path answers 200. Rejects, with the tail of its
 * log, when it exits first or is not ready in time (and then stops it).
 */
export async function startProcess(spec: ProcessSpec): Promise<RealServer> {
  const dir = await mkdtemp(join(tmpdir(), `fakehands-real-${spec.name}-`));
  for (const folder of spec.folders ?? []) await mkdir(join(dir, folder), { recursive: true });
  const port = await freePort('127.0.0.1', 0);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', [MARK]: dir };
  for (const [name, value] of Object.entries(spec.env)) env[name] = fill(value, dir, port);
  const logPath = join(dir, 'server.log');
  const log = createWriteStream(logPath);
  const child = spawn(
    fill(spec.command, dir, port),
    spec.args.map((a) => fill(a, dir, port)),
    {
      cwd: dir,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const pid = child.pid;
  const url = `http://127.0.0.1:${port}`;
  const tail = () => {
    try {
      return readFileSync(logPath, 'utf8').trim().split('\n').slice(-5).join(' | ').slice(-800);
    } catch {
      return '(no log)';
    }
  };
  const stop = async () => {
    if (pid !== undefined) await stopGroup(child, pid, dir);
    log.end();
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  };
  if (pid === undefined) {
    await stop();
    throw new Error(`the real ${spec.name} did not start: ${spec.command} could not be run`);
  }
  const deadline = Date.now() + (spec.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null || !alive(pid)) {
      const why = tail();
      await stop();
      throw new Error(`the real ${spec.name} exited before it was ready (${child.exitCode ?? child.signalCode}): ${why}`);
    }
    const ready = await fetch(`${url}${spec.readyPath}`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      const why = tail();
      await stop();
      throw new Error(`the real ${spec.name} was not ready at ${url}${spec.readyPath} in time: ${why}`);
    }
    await sleep(250);
  }
  return { name: spec.name, url, key: spec.key, pid, dir, stop };
}
