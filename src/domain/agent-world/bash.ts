/**
 * The agent server's shell (`/api/bash/*` and the `/sockets/bash-events` socket): a command is a
 * `BashCommand` event, its output one `BashOutput` per line (`order` from 0), the last with its
 * `exit_code`, each published when the clock reaches it. Copies openhands-agent-server
 * `bash_router.py` (search_bash_events, get_bash_event, batch_get_bash_events, start_bash_command,
 * execute_bash_command, clear_all_bash_events) and `bash_service.py`. Nothing runs: the fake answers
 * a few commands (`echo`, `pwd`, `ls`, `cd`, `true`, `false`, `exit N`, `sleep N`, `whoami`,
 * `date`, and `find` in a conversation's workspace) from the host's directories, and "command not
 * found" (127) for the others.
 *
 * The shell's events stay in memory beside the store, per state (a WeakMap: a reset or a tenant
 * starts afresh), not in the agent world (`world.ts`): they are the output of commands that ran,
 * published as the clock reaches each line (the open sockets settle them every 25 ms) and streamed
 * to live listeners. Kept in the store, each line published would be a change the state file
 * writes. A restart starts the shell's history afresh (declared in the README).
 */
import { naiveTimestamp } from '../fixtures/fixtures.js';
import { formatDateTime } from '../../schemas/datetime.js';
import { Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { agentServerContext } from '../conversations/conversation-ops.js';
import { isDirectory } from './host.js';
import { HOME, worldOf } from './world.js';

/** A bash event: a command, its output, or an error (`BashEventBase`). */
export type BashEvent =
  | { kind: 'BashCommand'; id: string; timestamp: string; command: string; cwd: string | null; timeout: number }
  | {
      kind: 'BashOutput';
      id: string;
      timestamp: string;
      command_id: string;
      order: number;
      exit_code: number | null;
      stdout: string | null;
      stderr: string | null;
    }
  | { kind: 'BashError'; id: string; timestamp: string; code: string; detail: string };

/** The shell of one state. */
export interface Shell {
  /** Bash events in the order they were published (outputs appear when the clock reaches them). */
  bash: BashEvent[];
  /** Outputs not yet published: each with the epoch ms it is due. */
  pendingBash: { due: number; event: BashEvent }[];
  /** Listeners of new bash events (the `/sockets/bash-events` sockets). */
  bashListeners: Set<(event: BashEvent) => void>;
}

const shells = new WeakMap<DomainState, Shell>();

/** The shell of `state` (made on first use). */
export function shellOf(state: DomainState): Shell {
  let shell = shells.get(state);
  if (!shell) shells.set(state, (shell = { bash: [], pendingBash: [], bashListeners: new Set() }));
  return shell;
}

/** Each output line of a command takes this share of the agent's run time (a 10 s run: 500 ms a line). */
const LINE_SHARE = 20;
/** Most bash events kept; the oldest go first. */
export const MAX_BASH_EVENTS = 10_000;
/**
 * Most characters the kept bash events hold (commands and output, 32 Mi); the oldest go first, the
 * newest event is always kept. Output still to be published is bounded the same way (a new command
 * is refused past it). The real server keeps every event in a file until its retention time
 * (`bash_events_retention_seconds`, none by default).
 */
export const MAX_BASH_HISTORY_CHARS = 32 * 1024 * 1024;
/**
 * Most characters of one command's output kept (1 Mi, the real server's `MAX_CONTENT_CHAR_LENGTH`,
 * where it starts a new `BashOutput`); the rest is cut, and `truncationMarker` says how much.
 */
export const MAX_BASH_OUTPUT_CHARS = 1024 * 1024;
/** The line that ends an output cut at `MAX_BASH_OUTPUT_CHARS` of its `total` characters. */
export const truncationMarker = (total: number) =>
  `[fakehands: output truncated: the first ${MAX_BASH_OUTPUT_CHARS} of ${total} characters kept]`;

/** What a bash event weighs against the bounds: its strings' lengths and a little for its other fields. */
export function bashEventChars(event: BashEvent): number {
  if (event.kind === 'BashCommand') return 200 + event.command.length + (event.cwd?.length ?? 0);
  if (event.kind === 'BashOutput') return 200 + (event.stdout?.length ?? 0) + (event.stderr?.length ?? 0);
  return 200 + event.code.length + event.detail.length;
}

/**
 * The weight of a history (a `world.bash` list) and how many events were dropped off its front since
 * it was made (a socket sending the history counts its place from there). Kept beside the list, by
 * the list itself: a list made elsewhere (cleared, loaded) is weighed on first use.
 */
const ledgers = new WeakMap<BashEvent[], { chars: number; dropped: number }>();
/** The weight of a list of pending outputs. */
const pendingWeights = new WeakMap<object, number>();

/** The ledger of a history list. */
export function historyLedger(history: BashEvent[]): { chars: number; dropped: number } {
  let ledger = ledgers.get(history);
  if (!ledger) {
    let chars = 0;
    for (const event of history) chars += bashEventChars(event);
    ledgers.set(history, (ledger = { chars, dropped: 0 }));
  }
  return ledger;
}

/** What the outputs not yet published weigh. */
function pendingChars(world: Shell): number {
  let chars = pendingWeights.get(world.pendingBash);
  if (chars === undefined) {
    chars = 0;
    for (const p of world.pendingBash) chars += bashEventChars(p.event);
    pendingWeights.set(world.pendingBash, chars);
  }
  return chars;
}

/** Cuts output lines to `MAX_BASH_OUTPUT_CHARS` characters in all (newlines counted), the marker last. */
function boundedLines(lines: string[]): string[] {
  let total = 0;
  for (const line of lines) total += line.length + 1;
  if (total <= MAX_BASH_OUTPUT_CHARS) return lines;
  const kept: string[] = [];
  let room = MAX_BASH_OUTPUT_CHARS;
  for (const line of lines) {
    if (room <= 0) break;
    kept.push(line.length + 1 <= room ? line : line.slice(0, room));
    room -= line.length + 1;
  }
  kept.push(truncationMarker(total));
  return kept;
}

type Output = Extract<BashEvent, { kind: 'BashOutput' }>;

/** What a command prints and exits with, and how long it takes (ms beyond its lines). */
function outcome(
  state: DomainState,
  command: string,
  cwd: string,
): { lines: string[]; stderr: string | null; exit: number; extraMs: number } {
  const trimmed = command.trim();
  const name = /^\S*/.exec(trimmed)![0];
  const rest = trimmed.slice(name.length).trim();
  // The first word after the name, the only one a command reads (a 1 MB `echo` is not split into its words).
  const first = (): string | undefined => /^\S*/.exec(rest)![0] || undefined;
  switch (name) {
    case '':
    case 'true':
    case 'cd':
      return { lines: [], stderr: null, exit: 0, extraMs: 0 };
    case 'false':
      return { lines: [], stderr: null, exit: 1, extraMs: 0 };
    case 'exit':
      return { lines: [], stderr: null, exit: Number.parseInt(first() ?? '0', 10) & 255 || 0, extraMs: 0 };
    case 'echo':
      return { lines: [rest.replace(/^(['"])(.*)\1$/, '$2')], stderr: null, exit: 0, extraMs: 0 };
    case 'pwd':
      return { lines: [cwd], stderr: null, exit: 0, extraMs: 0 };
    case 'whoami':
      return { lines: ['openhands'], stderr: null, exit: 0, extraMs: 0 };
    case 'date':
      return { lines: [new Date(state.clock.now()).toUTCString()], stderr: null, exit: 0, extraMs: 0 };
    case 'sleep':
      return { lines: [], stderr: null, exit: 0, extraMs: Math.min(3600, Math.max(0, Number(first()) || 0)) * 1000 };
    case 'ls': {
      const arg = first();
      const dir = arg ? (arg.startsWith('/') ? arg : `${cwd}/${arg}`) : cwd;
      if (!isDirectory(state, dir))
        return { lines: [], stderr: `ls: cannot access '${arg}': No such file or directory`, exit: 2, extraMs: 0 };
      const names = [...worldOf(state).directories].filter(
        (d) =>
          d !== dir &&
          d.startsWith(dir === '/' ? '/' : `${dir}/`) &&
          !d.slice(dir.length + 1).includes('/') &&
          !d.slice(d.lastIndexOf('/') + 1).startsWith('.'),
      );
      return { lines: names.map((d) => d.slice(d.lastIndexOf('/') + 1)).sort(), stderr: null, exit: 0, extraMs: 0 };
    }
    case 'find':
      return { lines: workspaceFiles(state, cwd), stderr: null, exit: 0, extraMs: 0 };
    default:
      return { lines: [], stderr: `bash: ${name}: command not found`, exit: 127, extraMs: 0 };
  }
}

/**
 * `find . … -type f -print` in a conversation's workspace (`…/{conversation id}`, the folder Agent
 * Canvas's file tree lists through the shell): its files as `./path`, sorted; none elsewhere.
 */
function workspaceFiles(state: DomainState, cwd: string): string[] {
  const id = /([0-9a-f]{32})\/?$/.exec(cwd)?.[1];
  if (!id) return [];
  const context = agentServerContext(state, id);
  if (context.kind !== 'ready') return [];
  return Object.keys(context.workspace.current)
    .sort()
    .map((file) => `./${file}`);
}

const stamp = (ms: number) => naiveTimestamp(formatDateTime(ms));

/** Publishes `event` to the log and every listener; the oldest events go past `MAX_BASH_EVENTS` or `MAX_BASH_HISTORY_CHARS`. */
function publish(state: DomainState, event: BashEvent): void {
  const world = shellOf(state);
  const ledger = historyLedger(world.bash);
  world.bash.push(event);
  ledger.chars += bashEventChars(event);
  let drop = Math.max(0, world.bash.length - MAX_BASH_EVENTS);
  let chars = ledger.chars;
  for (let i = 0; i < drop; i++) chars -= bashEventChars(world.bash[i]!);
  while (chars > MAX_BASH_HISTORY_CHARS && drop < world.bash.length - 1) chars -= bashEventChars(world.bash[drop++]!);
  if (drop > 0) {
    world.bash.splice(0, drop);
    ledger.dropped += drop;
    ledger.chars = chars;
  }
  for (const listener of world.bashListeners) listener(event);
}

/** Publishes the outputs whose time has come, in order. */
export function settleBash(state: DomainState): void {
  const world = shellOf(state);
  const now = state.clock.now();
  let due = 0;
  while (due < world.pendingBash.length && world.pendingBash[due]!.due <= now) due++;
  if (due === 0) return;
  let chars = pendingChars(world);
  const published = world.pendingBash.splice(0, due);
  for (const p of published) chars -= bashEventChars(p.event);
  pendingWeights.set(world.pendingBash, chars);
  for (const p of published) publish(state, p.event);
}

/** `ExecuteBashRequest`, validated. */
export interface ExecuteBashRequest {
  command: string;
  cwd?: string | null | undefined;
  timeout: number;
}

/**
 * Starts a command: its `BashCommand` is published now, each output line when the clock reaches it
 * (a timed-out command ends with exit code -1). Returns the command and its final output.
 */
export function startBashCommand(
  state: DomainState,
  request: ExecuteBashRequest,
  whole = false,
): { command: BashEvent; last: Output } | Refusal {
  settleBash(state);
  const world = shellOf(state);
  if (world.pendingBash.length >= MAX_BASH_EVENTS)
    return new Refusal('too_many', `Too many commands still running (${MAX_BASH_EVENTS} output lines pending); wait for them to end`);
  const pendingBefore = pendingChars(world);
  if (pendingBefore >= MAX_BASH_HISTORY_CHARS)
    return new Refusal(
      'too_many',
      `Too many commands still running (${MAX_BASH_HISTORY_CHARS} characters of output pending); wait for them to end`,
    );
  const now = state.clock.now();
  const cwd = request.cwd ?? HOME;
  const command: BashEvent = {
    kind: 'BashCommand',
    id: state.random.uuid(),
    timestamp: stamp(now),
    command: request.command,
    cwd: request.cwd ?? null,
    timeout: request.timeout,
  };
  publish(state, command);
  const result = outcome(state, request.command, cwd);
  result.lines = boundedLines(result.lines);
  if (result.stderr !== null) result.stderr = boundedLines([result.stderr]).join('\n');
  const lineMs = Math.round(state.options.timings.agentRunMs / LINE_SHARE);
  const timedOut = result.extraMs > request.timeout * 1000;
  const chunks: { stdout: string | null; stderr: string | null }[] = whole
    ? [
        {
          stdout: result.lines.length ? result.lines.map((line) => `${line}\n`).join('') : null,
          stderr: result.stderr ? `${result.stderr}\n` : null,
        },
      ]
    : result.lines.map((line) => ({ stdout: `${line}\n`, stderr: null }));
  if (result.stderr && !whole) chunks.push({ stdout: null, stderr: `${result.stderr}\n` });
  if (chunks.length === 0) chunks.push({ stdout: null, stderr: null });
  let due = now;
  let last: Output | null = null;
  chunks.forEach((chunk, order) => {
    due += lineMs + (order === chunks.length - 1 ? Math.min(result.extraMs, request.timeout * 1000) : 0);
    const final = order === chunks.length - 1;
    last = {
      kind: 'BashOutput',
      id: state.random.uuid(),
      timestamp: stamp(due),
      command_id: command.id,
      order,
      exit_code: final ? (timedOut ? -1 : result.exit) : null,
      stdout: chunk.stdout,
      stderr: chunk.stderr,
    };
    world.pendingBash.push({ due, event: last });
  });
  let chars = pendingBefore;
  for (const p of world.pendingBash.slice(-chunks.length)) chars += bashEventChars(p.event);
  world.pendingBash.sort((a, b) => a.due - b.due);
  pendingWeights.set(world.pendingBash, chars);
  settleBash(state);
  return { command, last: last! };
}

/**
 * `POST /api/bash/execute_bash_command`: runs the command to its end (its output published at once)
 * and answers its last output. The output is one `BashOutput` with all of it, as the real service's
 * for an output under its chunk size (`bash_service.py` sends what its buffer holds at the end), so
 * the answer holds the whole output (Agent Canvas's file tree reads `find`'s list from it).
 */
export function executeBashCommand(state: DomainState, request: ExecuteBashRequest): Output | Refusal {
  const started = startBashCommand(state, request, true);
  if (started instanceof Refusal) return started;
  const { command, last } = started;
  const world = shellOf(state);
  const mine = world.pendingBash.filter((p) => (p.event as Output).command_id === command.id);
  let chars = pendingChars(world);
  for (const p of mine) chars -= bashEventChars(p.event);
  world.pendingBash = world.pendingBash.filter((p) => (p.event as Output).command_id !== command.id);
  pendingWeights.set(world.pendingBash, chars);
  for (const p of mine) publish(state, p.event);
  return last;
}

/** `DELETE /api/bash/bash_events`: `{"cleared_count": n}`. */
export function clearBashEvents(state: DomainState) {
  settleBash(state);
  const world = shellOf(state);
  const count = world.bash.length;
  world.bash = [];
  return { cleared_count: count };
}

/**
 * `POST /api/bash/bash_commands/{id}/stop` (`stop_bash_command`): a command still running is
 * stopped (its remaining output dropped, a last `BashOutput` with the exit code a SIGTERM gives,
 * -15); stopping a finished one succeeds too; `false` for an id that names no command (the 404).
 */
export function stopBashCommand(state: DomainState, commandId: string): boolean {
  settleBash(state);
  const world = shellOf(state);
  // A UUID with or without its hyphens names the same command.
  const hex = (text: string) => text.replaceAll('-', '').toLowerCase();
  const command = world.bash.find((e) => e.kind === 'BashCommand' && hex(e.id) === hex(commandId));
  if (!command) return false;
  const id = command.id;
  const pending = world.pendingBash.filter((p) => (p.event as Output).command_id === id);
  if (pending.length === 0) return true;
  let chars = pendingChars(world);
  for (const p of pending) chars -= bashEventChars(p.event);
  world.pendingBash = world.pendingBash.filter((p) => (p.event as Output).command_id !== id);
  pendingWeights.set(world.pendingBash, chars);
  const order = Math.min(...pending.map((p) => (p.event as Output).order));
  publish(state, {
    kind: 'BashOutput',
    id: state.random.uuid(),
    timestamp: stamp(state.clock.now()),
    command_id: id,
    order,
    exit_code: -15,
    stdout: null,
    stderr: null,
  });
  return true;
}
