/**
 * The agent server's shell as the fake stores it: `BashCommand`, `BashOutput` and `BashError`
 * events (openhands-agent-server `models.py`; the fake's `BashError`), and the shell's record in a
 * fixture (`shell`): the events published so far, oldest first, and the outputs not yet due, each
 * with the epoch ms it is published at. A snapshot and the state file hold it; a field left out is
 * an empty shell's.
 */
import * as z from 'zod/mini';

const stamp = z.string();

/** `BashCommand`, `BashOutput` and `BashError`. */
export const BashEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('BashCommand'),
    id: z.string(),
    timestamp: stamp,
    command: z.string(),
    cwd: z.nullable(z.string()),
    timeout: z.int(),
  }),
  z.object({
    kind: z.literal('BashOutput'),
    id: z.string(),
    timestamp: stamp,
    command_id: z.string(),
    order: z.int(),
    exit_code: z.nullable(z.int()),
    stdout: z.nullable(z.string()),
    stderr: z.nullable(z.string()),
  }),
  z.object({ kind: z.literal('BashError'), id: z.string(), timestamp: stamp, code: z.string(), detail: z.string() }),
]);
export type BashEvent = z.infer<typeof BashEvent>;

/** A `BashOutput` event. */
export type BashOutputEvent = Extract<BashEvent, { kind: 'BashOutput' }>;

/** An output not yet published: the epoch ms it is due and the event. */
export const PendingBashRecord = z.object({ due: z.number(), event: BashEvent });
export type PendingBashRecord = z.infer<typeof PendingBashRecord>;

/** The shell's record: its published events, oldest first, and its outputs not yet due, soonest first. */
export const ShellRecord = z.strictObject({
  events: z._default(z.array(BashEvent), []),
  pending: z._default(z.array(PendingBashRecord), []),
});
export type ShellRecord = z.infer<typeof ShellRecord>;

/** One change of the shell. */
export type ShellStep =
  /** Events published at the end of the log. */
  | { append: BashEvent[] }
  /** The first `publish` pending outputs moved to the end of the log (they came due). */
  | { publish: number }
  /** The `drop` oldest events of the log dropped. */
  | { drop: number }
  /** Outputs added to the pending ones, which are then ordered by when they are due (ties keep their order). */
  | { pend: PendingBashRecord[] }
  /** The pending outputs of the command `unpend` removed. */
  | { unpend: string }
  /** The log emptied (the pending outputs stay). */
  | { clear: true };
