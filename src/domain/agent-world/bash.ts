/**
 * The agent server's shell (`/api/bash/*` and the `/sockets/bash-events` socket): a command is a
 * `BashCommand` event, its output one `BashOutput` per line (`order` from 0), the last with its
 * `exit_code`, each published when the clock reaches it. Copies openhands-agent-server
 * `bash_router.py` (search_bash_events, get_bash_event, batch_get_bash_events, start_bash_command,
 * execute_bash_command, clear_all_bash_events) and `bash_service.py`. Nothing runs: the fake answers
 * a few commands (`echo`, `pwd`, `ls`, `cd`, `true`, `false`, `exit N`, `sleep N`, `whoami`,
 * `date`, and `find` in a conversation's workspace) from the host's directories, and "command not
 * found" (127) for the others.
 */
import { naiveTimestamp } from '../fixtures/fixtures.js';
import { formatDateTime } from '../../schemas/datetime.js';
import { Refusal, refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { agentServerContext } from '../conversations/conversation-ops.js';
import { isDirectory } from './host.js';
import { HOME, worldOf, type BashEvent } from './world.js';

/** Each output line of a command takes this share of the agent's run time (a 10 s run: 500 ms a line). */
const LINE_SHARE = 20;
/** Most bash events kept; the oldest go first. */
export const MAX_BASH_EVENTS = 10_000;

type Output = Extract<BashEvent, { kind: 'BashOutput' }>;

/** What a command prints and exits with, and how long it takes (ms beyond its lines). */
function outcome(
  state: DomainState,
  command: string,
  cwd: string,
): { lines: string[]; stderr: string | null; exit: number; extraMs: number } {
  const [name = '', ...args] = command.trim().split(/\s+/);
  const rest = command.trim().slice(name.length).trim();
  switch (name) {
    case '':
    case 'true':
    case 'cd':
      return { lines: [], stderr: null, exit: 0, extraMs: 0 };
    case 'false':
      return { lines: [], stderr: null, exit: 1, extraMs: 0 };
    case 'exit':
      return { lines: [], stderr: null, exit: Number.parseInt(args[0] ?? '0', 10) & 255 || 0, extraMs: 0 };
    case 'echo':
      return { lines: [rest.replace(/^(['"])(.*)\1$/, '$2')], stderr: null, exit: 0, extraMs: 0 };
    case 'pwd':
      return { lines: [cwd], stderr: null, exit: 0, extraMs: 0 };
    case 'whoami':
      return { lines: ['openhands'], stderr: null, exit: 0, extraMs: 0 };
    case 'date':
      return { lines: [new Date(state.clock.now()).toUTCString()], stderr: null, exit: 0, extraMs: 0 };
    case 'sleep':
      return { lines: [], stderr: null, exit: 0, extraMs: Math.min(3600, Math.max(0, Number(args[0]) || 0)) * 1000 };
    case 'ls': {
      const dir = args[0] ? (args[0].startsWith('/') ? args[0] : `${cwd}/${args[0]}`) : cwd;
      if (!isDirectory(state, dir))
        return { lines: [], stderr: `ls: cannot access '${args[0]}': No such file or directory`, exit: 2, extraMs: 0 };
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

/** Publishes `event` to the log and every listener. */
function publish(state: DomainState, event: BashEvent): void {
  const world = worldOf(state);
  world.bash.push(event);
  if (world.bash.length > MAX_BASH_EVENTS) world.bash.splice(0, world.bash.length - MAX_BASH_EVENTS);
  for (const listener of world.bashListeners) listener(event);
}

/** Publishes the outputs whose time has come, in order. */
export function settleBash(state: DomainState): void {
  const world = worldOf(state);
  const now = state.clock.now();
  while (world.pendingBash.length > 0 && world.pendingBash[0]!.due <= now) publish(state, world.pendingBash.shift()!.event);
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
  if (worldOf(state).pendingBash.length >= MAX_BASH_EVENTS)
    return new Refusal('too_many', `Too many commands still running (${MAX_BASH_EVENTS} output lines pending); wait for them to end`);
  const world = worldOf(state);
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
  world.pendingBash.sort((a, b) => a.due - b.due);
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
  const world = worldOf(state);
  const mine = world.pendingBash.filter((p) => (p.event as Output).command_id === command.id);
  world.pendingBash = world.pendingBash.filter((p) => (p.event as Output).command_id !== command.id);
  for (const p of mine) publish(state, p.event);
  return last;
}

/** Filters of a bash event search. */
export interface BashSearch {
  kind__eq?: 'BashCommand' | 'BashOutput' | undefined;
  command_id__eq?: string | undefined;
  timestamp__gte?: string | undefined;
  timestamp__lt?: string | undefined;
  order__gt?: number | undefined;
  sort_order: 'TIMESTAMP' | 'TIMESTAMP_DESC';
  page_id?: string | undefined;
  limit: number;
}

/** `GET /api/bash/bash_events/search`: a page; `page_id` is the id of the page's first event. */
export function searchBashEvents(state: DomainState, search: BashSearch) {
  settleBash(state);
  let events = worldOf(state).bash.filter(
    (e) =>
      (!search.kind__eq || e.kind === search.kind__eq) &&
      (!search.command_id__eq ||
        (e.kind === 'BashOutput' && e.command_id === search.command_id__eq) ||
        (e.kind === 'BashCommand' && e.id === search.command_id__eq && !search.kind__eq)) &&
      (!search.timestamp__gte || e.timestamp >= search.timestamp__gte) &&
      (!search.timestamp__lt || e.timestamp < search.timestamp__lt) &&
      (search.order__gt === undefined || (e.kind === 'BashOutput' && e.order > search.order__gt)),
  );
  if (search.sort_order === 'TIMESTAMP_DESC') events = [...events].reverse();
  const start = search.page_id
    ? Math.max(
        0,
        events.findIndex((e) => e.id === search.page_id),
      )
    : 0;
  return { items: events.slice(start, start + search.limit), next_page_id: events[start + search.limit]?.id ?? null };
}

/** `GET /api/bash/bash_events/{id}`: 404 (no detail) when unknown. */
export function getBashEvent(state: DomainState, id: string) {
  settleBash(state);
  return worldOf(state).bash.find((e) => e.id === id) ?? refuse('not_found', 'Not Found');
}

/** `GET /api/bash/bash_events/?event_ids=`: aligned, null for missing ones. */
export function batchGetBashEvents(state: DomainState, ids: readonly string[]) {
  settleBash(state);
  const byId = new Map(worldOf(state).bash.map((e) => [e.id, e]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** `DELETE /api/bash/bash_events`: `{"cleared_count": n}`. */
export function clearBashEvents(state: DomainState) {
  settleBash(state);
  const world = worldOf(state);
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
  const world = worldOf(state);
  // A UUID with or without its hyphens names the same command.
  const hex = (text: string) => text.replaceAll('-', '').toLowerCase();
  const command = world.bash.find((e) => e.kind === 'BashCommand' && hex(e.id) === hex(commandId));
  if (!command) return false;
  const id = command.id;
  const pending = world.pendingBash.filter((p) => (p.event as Output).command_id === id);
  if (pending.length === 0) return true;
  world.pendingBash = world.pendingBash.filter((p) => (p.event as Output).command_id !== id);
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
