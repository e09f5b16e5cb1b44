/**
 * One loaded state of the fake and what every area needs to work on it: the store, the clock,
 * the seeded random source, the time stamps it hands out and the sandbox status at this instant.
 * A reset builds a new `DomainState`; the `FakeService` front keeps the same identity.
 */
import { formatDateTime, parseDateTime } from '../schemas/datetime.js';
import type { SandboxRecord, StoredSandboxStatus } from '../schemas/records.js';
import type { Clock } from './clock.js';
import { RandomSource } from './ids.js';
import { FINAL_TASK_STATUSES, settleSandboxStatus, type Timings } from './lifecycle.js';
import type { Store } from './store.js';

/** Options of the domain. */
export interface ServiceOptions {
  /** How long time-driven steps take. */
  timings: Timings;
  /** `created_by_user_id` of what the caller creates. */
  userId: string | null;
}

/** A sandbox's status at an instant and since when it has been in it. */
export interface SandboxState {
  status: StoredSandboxStatus;
  sinceMs: number;
}

/** The state the areas operate on. */
export class DomainState {
  /** The records. */
  readonly store: Store;
  /** Where time comes from. */
  readonly clock: Clock;
  /** Every generated id and key. */
  readonly random: RandomSource;
  /** Timings and the user id. */
  readonly options: ServiceOptions;
  /** Start tasks that are not READY or ERROR yet. */
  readonly pendingTasks = new Set<string>();
  /** Sandboxes created so far (ports are handed out by it). */
  sandboxCount: number;
  /** The last timestamp handed out, in epoch microseconds. */
  #lastStampMicros = 0;

  /** A state over a loaded store. */
  constructor(store: Store, clock: Clock, seed: number, options: ServiceOptions) {
    this.store = store;
    this.clock = clock;
    this.random = new RandomSource(seed);
    this.options = options;
    this.sandboxCount = store.sandboxes.size;
    for (const task of store.startTasks.all()) {
      if (!FINAL_TASK_STATUSES.has(task.status)) this.pendingTasks.add(task.id);
    }
  }

  /**
   * A timestamp for `ms` with seeded microseconds, always after the previous one handed out, so
   * records created in the same millisecond keep their order and are appended to the orderings.
   */
  stamp(ms = this.clock.now()): string {
    const micros = Math.max(ms * 1000 + this.random.int(0, 999), this.#lastStampMicros + 1);
    this.#lastStampMicros = micros;
    return formatDateTime(Math.floor(micros / 1000), micros % 1000);
  }

  /** When a record entered its current status, in epoch ms. */
  sinceMs(record: { status_changed_at?: string | undefined; created_at: string }): number {
    return parseDateTime(record.status_changed_at ?? record.created_at);
  }

  /** Where a sandbox's time-driven steps have taken it by now, and since when. */
  sandboxState(record: SandboxRecord): SandboxState {
    return settleSandboxStatus(record.status, this.sinceMs(record), this.clock.now(), this.options.timings);
  }

  /** A sandbox as it is at this instant (its stored status moved on by the time-driven steps). */
  settledNow(record: SandboxRecord): SandboxRecord {
    const { status } = this.sandboxState(record);
    return status === record.status ? record : { ...record, status };
  }
}
