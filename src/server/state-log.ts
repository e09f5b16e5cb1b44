/**
 * The change log of a `--state-file` (`PATH.log`, `state-file.ts`): one JSON line per changed record
 * (what it sets, unsets, appends, merges or drops), or per changed part of the fixture that is one
 * record of its own (the settings, the secrets, the agent world: the part as it now is), or per
 * operation that changed the shell (its steps: `store/shell-log.ts`), written
 * from the state's change events and applied in order to the snapshot when the file is read again.
 */
import type { ChangedEntity, SnapshotPart, StateChange } from '../domain/store/events.js';
import { applyShellSteps, type ShellStep } from '../domain/store/shell-log.js';

/** Where each kind of record lives in a fixture. */
export const COLLECTION_OF: Partial<Record<ChangedEntity, 'sandbox_specs' | 'sandboxes' | 'conversations' | 'start_tasks' | 'events'>> = {
  sandbox_spec: 'sandbox_specs',
  sandbox: 'sandboxes',
  conversation: 'conversations',
  start_task: 'start_tasks',
  event: 'events',
};

/** The part of a fixture each change of a record of its own replaces whole. */
export const PART_OF: Partial<Record<ChangedEntity, SnapshotPart>> = {
  provider_tokens: 'provider_tokens',
  mcp_config: 'mcp_config',
  settings: 'settings',
  secrets: 'secrets',
  agent_world: 'agent_world',
};

/**
 * One line of the change log: a whole new record, the fields an update set and the items it
 * appended, a delete, or a part of the fixture as it now is (`set`; without a `value`: left out).
 */
type LogLine =
  | { op: 'set'; part: SnapshotPart; value?: unknown }
  | { op: 'put'; entity: ChangedEntity; record: { id: string } }
  | {
      op: 'patch';
      entity: ChangedEntity;
      id: string;
      set: Record<string, unknown>;
      unset?: string[];
      append?: Record<string, unknown[]>;
      merge?: Record<string, Record<string, unknown>>;
      drop?: Record<string, string[]>;
    }
  | { op: 'delete'; entity: ChangedEntity; id: string }
  | { op: 'shell'; steps: ShellStep[] };

/** The log beside a state file. */
export const logPath = (path: string) => `${path}.log`;

/** A record's map field as replay changes it: the map, or a new one when the field holds none. */
const mapOf = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * Applies the log's lines to a snapshot, each in constant time (records found through an index by
 * id). A line that is not JSON is a write that failed part-way (a full disk, a crash mid-append):
 * it was never acknowledged, and the writer starts the next line on a fresh line, so it is skipped.
 */
export function applyLog(state: Record<string, unknown>, text: string): { skipped: number } {
  const indexes = new Map<string, Map<string, number>>();
  const indexOf = (collection: string, records: ({ id: string } | null)[]) => {
    let index = indexes.get(collection);
    if (!index) {
      index = new Map(records.map((r, i) => [r!.id, i]));
      indexes.set(collection, index);
    }
    return index;
  };
  let skipped = 0;
  const shellSteps: ShellStep[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: LogLine;
    try {
      entry = JSON.parse(line) as LogLine;
    } catch {
      skipped++;
      continue;
    }
    if (entry.op === 'set') {
      if (entry.value === undefined) delete state[entry.part];
      else state[entry.part] = entry.value;
      continue;
    }
    if (entry.op === 'shell') {
      for (const step of entry.steps) shellSteps.push(step);
      continue;
    }
    const collection = COLLECTION_OF[entry.entity];
    if (!collection) continue;
    const records = (state[collection] ??= []) as ({ id: string } | null)[];
    const index = indexOf(collection, records);
    const id = entry.op === 'put' ? entry.record.id : entry.id;
    const at = index.get(id);
    if (entry.op === 'delete') {
      if (at !== undefined) records[at] = null;
      index.delete(id);
    } else if (entry.op === 'put') {
      if (at !== undefined) records[at] = entry.record;
      else index.set(id, records.push(entry.record) - 1);
    } else if (at !== undefined) {
      const record = records[at] as Record<string, unknown>;
      Object.assign(record, entry.set);
      for (const field of entry.unset ?? []) delete record[field];
      // Appended in place (the record is the replay's own copy): a long list grown line by line costs what was appended.
      for (const [field, items] of Object.entries(entry.append ?? {})) {
        const list = Array.isArray(record[field]) ? (record[field] as unknown[]) : ((record[field] = []) as unknown[]);
        for (const item of items) list.push(item);
      }
      // A map's keys set anew and removed, in place: the record is the replay's own copy.
      for (const [field, values] of Object.entries(entry.merge ?? {})) record[field] = Object.assign(mapOf(record[field]), values);
      for (const [field, keys] of Object.entries(entry.drop ?? {})) {
        const map = (record[field] = mapOf(record[field]));
        for (const key of keys) delete map[key];
      }
    }
  }
  for (const collection of indexes.keys()) state[collection] = (state[collection] as unknown[]).filter((r) => r !== null);
  if (shellSteps.length > 0) state.shell = applyShellSteps(state.shell as Parameters<typeof applyShellSteps>[0], shellSteps);
  return { skipped };
}

/** The log line of the shell's steps in one operation (`StateChange.shell`, in order). */
export function shellLineOf(steps: ShellStep[]): LogLine {
  return { op: 'shell', steps };
}

/** The log line of a part of the fixture (`PART_OF`) as it now is: `value` from `ChangedState.part`. */
export const partLineOf = (part: SnapshotPart, value: unknown): LogLine => ({ op: 'set', part, value });

/** The log line of one record's change: the whole record when created, what changed when updated. */
export function logLineOf(change: StateChange, record: { id: string } | undefined): LogLine {
  if (record === undefined) return { op: 'delete', entity: change.entity, id: change.id! };
  if (change.action !== 'updated' || change.fields === undefined) return { op: 'put', entity: change.entity, record };
  const fields = record as unknown as Record<string, unknown>;
  const set = Object.fromEntries(change.fields.filter((field) => fields[field] !== undefined).map((field) => [field, fields[field]]));
  const unset = change.fields.filter((field) => fields[field] === undefined);
  const append =
    change.appended &&
    Object.fromEntries(Object.entries(change.appended).map(([field, count]) => [field, (fields[field] as unknown[]).slice(-count)]));
  // A map of which a few keys changed: those keys only (an upload logs its file, not every file before it).
  let merge: Record<string, Record<string, unknown>> | undefined;
  let drop: Record<string, string[]> | undefined;
  for (const [field, keys] of Object.entries(change.merged ?? {})) {
    const map = fields[field] as Record<string, unknown>;
    const present = keys.filter((key) => Object.hasOwn(map, key));
    const gone = keys.filter((key) => !Object.hasOwn(map, key));
    if (present.length > 0) (merge ??= {})[field] = Object.fromEntries(present.map((key) => [key, map[key]]));
    if (gone.length > 0) (drop ??= {})[field] = gone;
  }
  return {
    op: 'patch',
    entity: change.entity,
    id: change.id!,
    set,
    ...(unset.length > 0 ? { unset } : {}),
    ...(append ? { append } : {}),
    ...(merge ? { merge } : {}),
    ...(drop ? { drop } : {}),
  };
}
