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
 * The shell's events and the outputs not yet due are the store's (`state.store.shell`,
 * `store/shell-log.ts`): a snapshot, the state file, a reset, a tenant and an operation's undo cover
 * them as they cover every other record, and a restart shows the same history. Only the live
 * listeners (the open `/sockets/bash-events` sockets) stay beside the store, per state.
 */
import type { BashEvent, BashOutputEvent as Output, PendingBashRecord } from '../../schemas/bash.js';
import { naiveTimestamp } from '../fixtures/fixtures.js';
import { bashEventChars } from '../store/shell-log.js';
import { formatDateTime } from '../../schemas/datetime.js';
import { Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { agentServerContext } from '../conversations/conversation-ops.js';
import { isDirectory } from './host.js';
import { HOME, worldOf } from './world.js';

export type { BashEvent } from '../../schemas/bash.js';
export { bashEventChars } from '../store/shell-log.js';

/** The live listeners of one state's shell. */
export interface Shell {
  /** Listeners of new bash events (the `/sockets/bash-events` sockets). */
  bashListeners: Set<(event: BashEvent) => void>;
}

const shells = new WeakMap<DomainState, Shell>();

/** The live listeners of `state`'s shell (made on first use); its events are `state.store.shell`. */
export function shellOf(state: DomainState): Shell {
  let shell = shells.get(state);
  if (!shell) shells.set(state, (shell = { bashListeners: new Set() }));
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

/** Drops the oldest events past `MAX_BASH_EVENTS` or `MAX_BASH_HISTORY_CHARS` (the newest is always kept). */
function trim(state: DomainState): void {
  const shell = state.store.shell;
  const events = shell.events;
  let drop = Math.max(0, events.length - MAX_BASH_EVENTS);
  let chars = shell.eventChars;
  for (let i = 0; i < drop; i++) chars -= bashEventChars(events[i]!);
  while (chars > MAX_BASH_HISTORY_CHARS && drop < events.length - 1) chars -= bashEventChars(events[drop++]!);
  shell.drop(drop);
}

/** Tells every listener of `events`, just published. */
function tell(state: DomainState, events: readonly BashEvent[]): void {
  const listeners = shellOf(state).bashListeners;
  if (listeners.size === 0) return;
  for (const event of events) for (const listener of listeners) listener(event);
}

/** Publishes new `events` at the end of the log, the oldest going past the bounds, and tells every listener. */
function publish(state: DomainState, ...events: BashEvent[]): void {
  state.store.shell.append(...events);
  trim(state);
  tell(state, events);
}

/** Publishes the outputs whose time has come, in order. */
export function settleBash(state: DomainState): void {
  const shell = state.store.shell;
  const now = state.clock.now();
  const pending = shell.pending;
  let due = 0;
  while (due < pending.length && pending[due]!.due <= now) due++;
  if (due === 0) return;
  const events = pending.slice(0, due).map((p) => p.event);
  shell.publish(due);
  trim(state);
  tell(state, events);
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
  const shell = state.store.shell;
  if (shell.pending.length >= MAX_BASH_EVENTS)
    return new Refusal('too_many', `Too many commands still running (${MAX_BASH_EVENTS} output lines pending); wait for them to end`);
  if (shell.pendingChars >= MAX_BASH_HISTORY_CHARS)
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
  const outputs: PendingBashRecord[] = chunks.map((chunk, order) => {
    const final = order === chunks.length - 1;
    due += lineMs + (final ? Math.min(result.extraMs, request.timeout * 1000) : 0);
    const event: Output = {
      kind: 'BashOutput',
      id: state.random.uuid(),
      timestamp: stamp(due),
      command_id: command.id,
      order,
      exit_code: final ? (timedOut ? -1 : result.exit) : null,
      stdout: chunk.stdout,
      stderr: chunk.stderr,
    };
    return { due, event };
  });
  const last = outputs.at(-1)!.event as Output;
  // A command run to its end publishes its output at once: nothing of it waits.
  if (whole) publish(state, ...outputs.map((p) => p.event));
  else {
    shell.pend(outputs);
    settleBash(state);
  }
  return { command, last };
}

/**
 * `POST /api/bash/execute_bash_command`: runs the command to its end (its output published at once)
 * and answers its last output. The output is one `BashOutput` with all of it, as the real service's
 * for an output under its chunk size (`bash_service.py` sends what its buffer holds at the end), so
 * the answer holds the whole output (Agent Canvas's file tree reads `find`'s list from it).
 */
export function executeBashCommand(state: DomainState, request: ExecuteBashRequest): Output | Refusal {
  const started = startBashCommand(state, request, true);
  return started instanceof Refusal ? started : started.last;
}

/** `DELETE /api/bash/bash_events`: `{"cleared_count": n}`. */
export function clearBashEvents(state: DomainState) {
  settleBash(state);
  return { cleared_count: state.store.shell.clear() };
}

/**
 * `POST /api/bash/bash_commands/{id}/stop` (`stop_bash_command`): a command still running is
 * stopped (its remaining output dropped, a last `BashOutput` with the exit code a SIGTERM gives,
 * -15); stopping a finished one succeeds too; `false` for an id that names no command (the 404).
 */
export function stopBashCommand(state: DomainState, commandId: string): boolean {
  settleBash(state);
  // A UUID with or without its hyphens names the same command.
  const hex = (text: string) => text.replaceAll('-', '').toLowerCase();
  const command = state.store.shell.events.find((e) => e.kind === 'BashCommand' && hex(e.id) === hex(commandId));
  if (!command) return false;
  const id = command.id;
  const pending = state.store.shell.unpend(id);
  if (pending.length === 0) return true;
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
