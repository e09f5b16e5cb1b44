/**
 * The agent host's shell as the store holds it (`Store.shell`): the bash events published so far,
 * oldest first, and the outputs not yet due, soonest first (`schemas/bash.ts`). Every change is one
 * `ShellStep`, undone with the operation's transaction and announced (`entity: 'shell'`, the step
 * in `shell`), so the state file appends the step, never the whole shell: publishing output that
 * came due is a few bytes (`{"publish": 3}`), a command its own events. `applyShellSteps` replays
 * the steps on a fixture's `shell` when the state file is read again. The shell's bounds (count and
 * characters) are its own (`agent-world/bash.ts`): this module keeps the weights they are read from.
 */
import type { BashEvent, PendingBashRecord, ShellRecord, ShellStep } from '../../schemas/bash.js';
import type { ChangeSink } from './events.js';
import type { UndoSink } from './table.js';

export type { ShellStep } from '../../schemas/bash.js';

/** What a bash event weighs against the shell's bounds: its strings' lengths and a little for its other fields. */
export function bashEventChars(event: BashEvent): number {
  if (event.kind === 'BashCommand') return 200 + event.command.length + (event.cwd?.length ?? 0);
  if (event.kind === 'BashOutput') return 200 + (event.stdout?.length ?? 0) + (event.stderr?.length ?? 0);
  return 200 + event.code.length + event.detail.length;
}

const byDue = (a: PendingBashRecord, b: PendingBashRecord) => a.due - b.due;
const commandOf = (p: PendingBashRecord) => (p.event.kind === 'BashOutput' ? p.event.command_id : null);

/** The shell of one store. */
export class ShellLog {
  #events: BashEvent[] = [];
  #pending: PendingBashRecord[] = [];
  #eventChars = 0;
  #pendingChars = 0;
  #dropped = 0;
  readonly #undo: UndoSink;
  readonly #sink: () => ChangeSink;

  /** A shell whose changes are undone through `undo` and announced to `sink()`. */
  constructor(undo: UndoSink, sink: () => ChangeSink) {
    this.#undo = undo;
    this.#sink = sink;
  }

  /** The published events, oldest first (the live list: a clear replaces it; do not change it). */
  get events(): readonly BashEvent[] {
    return this.#events;
  }

  /** The outputs not yet published, soonest first (do not change the list). */
  get pending(): readonly PendingBashRecord[] {
    return this.#pending;
  }

  /** What the published events weigh (`bashEventChars`). */
  get eventChars(): number {
    return this.#eventChars;
  }

  /** What the pending outputs weigh. */
  get pendingChars(): number {
    return this.#pendingChars;
  }

  /** How many events were dropped off the log's front since the store was made (a socket sending the history counts its place from there). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Holds `record` (a fixture's, as loaded: nothing to undo or announce). */
  load(record: ShellRecord): void {
    this.#events = [...record.events];
    this.#pending = [...record.pending].sort(byDue);
    this.#eventChars = sumOf(this.#events);
    this.#pendingChars = sumOf(this.#pending.map((p) => p.event));
  }

  /** The shell as a fixture holds it, or `undefined` while it is empty. */
  record(): ShellRecord | undefined {
    if (this.#events.length === 0 && this.#pending.length === 0) return undefined;
    return { events: [...this.#events], pending: [...this.#pending] };
  }

  /** Publishes `events` at the end of the log. */
  append(...events: BashEvent[]): void {
    const list = this.#events;
    const chars = sumOf(events);
    list.push(...events);
    this.#eventChars += chars;
    this.#undo(() => {
      list.length -= events.length;
      this.#eventChars -= chars;
    });
    this.#announce({ append: events });
  }

  /** Moves the first `count` pending outputs to the end of the log. */
  publish(count: number): void {
    if (count <= 0) return;
    const list = this.#events;
    const moved = this.#pending.splice(0, count);
    const chars = sumOf(moved.map((p) => p.event));
    for (const p of moved) list.push(p.event);
    this.#eventChars += chars;
    this.#pendingChars -= chars;
    this.#undo(() => {
      list.length -= moved.length;
      this.#pending.unshift(...moved);
      this.#eventChars -= chars;
      this.#pendingChars += chars;
    });
    this.#announce({ publish: count });
  }

  /** Drops the `count` oldest events of the log. */
  drop(count: number): void {
    if (count <= 0) return;
    const list = this.#events;
    const gone = list.splice(0, count);
    const chars = sumOf(gone);
    this.#eventChars -= chars;
    this.#dropped += count;
    this.#undo(() => {
      list.unshift(...gone);
      this.#eventChars += chars;
      this.#dropped -= count;
    });
    this.#announce({ drop: count });
  }

  /** Adds outputs to the pending ones, ordered by when they are due. */
  pend(items: PendingBashRecord[]): void {
    if (items.length === 0) return;
    const previous = this.#pending;
    const chars = sumOf(items.map((p) => p.event));
    this.#pending = [...previous, ...items].sort(byDue);
    this.#pendingChars += chars;
    this.#undo(() => {
      this.#pending = previous;
      this.#pendingChars -= chars;
    });
    this.#announce({ pend: items });
  }

  /** Removes the pending outputs of `commandId` and returns them. */
  unpend(commandId: string): PendingBashRecord[] {
    const previous = this.#pending;
    const removed = previous.filter((p) => commandOf(p) === commandId);
    if (removed.length === 0) return removed;
    const chars = sumOf(removed.map((p) => p.event));
    this.#pending = previous.filter((p) => commandOf(p) !== commandId);
    this.#pendingChars -= chars;
    this.#undo(() => {
      this.#pending = previous;
      this.#pendingChars += chars;
    });
    this.#announce({ unpend: commandId });
    return removed;
  }

  /** Empties the log (a new list); returns how many events it held. */
  clear(): number {
    const previous = this.#events;
    const chars = this.#eventChars;
    this.#events = [];
    this.#eventChars = 0;
    this.#undo(() => {
      this.#events = previous;
      this.#eventChars = chars;
    });
    this.#announce({ clear: true });
    return previous.length;
  }

  #announce(step: ShellStep): void {
    this.#sink()({ entity: 'shell', action: 'updated', shell: step });
  }
}

function sumOf(events: readonly BashEvent[]): number {
  let chars = 0;
  for (const event of events) chars += bashEventChars(event);
  return chars;
}

/**
 * Applies `steps` to a fixture's `shell` (a plain value read from a state file), in order; returns
 * the shell as it then is. Drops and publishes move a start index rather than the list, so a long
 * log of steps replays in time proportional to its length.
 */
export function applyShellSteps(shell: { events?: unknown[]; pending?: unknown[] } | undefined, steps: readonly ShellStep[]) {
  let events = [...(shell?.events ?? [])] as BashEvent[];
  let pending = [...(shell?.pending ?? [])] as PendingBashRecord[];
  let head = 0;
  let pendingHead = 0;
  const livePending = () => {
    if (pendingHead > 0) pending = pending.slice(pendingHead);
    pendingHead = 0;
    return pending;
  };
  for (const step of steps) {
    if ('append' in step) for (const event of step.append) events.push(event);
    else if ('publish' in step) {
      for (const p of pending.slice(pendingHead, pendingHead + step.publish)) events.push(p.event);
      pendingHead = Math.min(pending.length, pendingHead + step.publish);
    } else if ('drop' in step) head = Math.min(events.length, head + step.drop);
    else if ('pend' in step) pending = [...livePending(), ...step.pend].sort(byDue);
    else if ('unpend' in step) pending = livePending().filter((p) => commandOf(p) !== step.unpend);
    else {
      events = [];
      head = 0;
    }
  }
  return { events: events.slice(head), pending: pending.slice(pendingHead) };
}
