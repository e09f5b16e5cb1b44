/**
 * Loading a fixture into a store (its way back, `fake.snapshot()`, is `snapshot.ts`). A fixture is
 * validated record by record as it is stored (`fixture-check.ts`, loaded only then); a built-in
 * fixture of a page (validated when the package was built, bundled in its parsed form) is stored
 * as it is, so a page never downloads the fixture's schemas to start (issue 23).
 */
import { canonicalDateTime, formatDateTime, parseDateTime, parseDateTimeMicros } from '../schemas/datetime.js';
import { FakehandsError, fixtureError } from './errors.js';
import type { FixtureParts, RecordKind, RecordOf } from './fixture-check.js';
import { toHyphenatedUuid } from './ids.js';
import { Store } from './store.js';
import { StoreBudget, sizeOf } from './table.js';

/** An event's `timestamp` as the agent server writes it: ISO, naive (no offset), microseconds. */
export function naiveTimestamp(stored: string): string {
  return stored.replace(/(Z|[+-]\d{2}:\d{2})$/, '');
}

/** The budget size of each record as stored (only its dates move from one load to the next, never their length). */
const SIZES = new WeakMap<object, number>();
/** The budget size of `stored`, made from the record `from`. */
const sizeFor = (from: object, stored: object): number => {
  let size = SIZES.get(from);
  if (size === undefined) SIZES.set(from, (size = sizeOf(stored)));
  return size;
};

/**
 * Validates a fixture and stores it, record by record (no second full copy of a large data set
 * is ever held). Throws a `FakehandsError` (`invalid_fixture`) naming the first bad path: a record that does not match
 * its schema, a reference to nothing, or an id used twice. Records without `status_changed_at`
 * entered their status at `nowMs`, so a STARTING sandbox of a fixture is still starting when it loads.
 * A fixture with `relative_to` has every time moved by `nowMs − relative_to`: it always looks recent.
 * A `trusted` fixture (a built-in one, in its parsed form) is stored without its schemas; its
 * references and ids are still checked.
 */
export async function storeFromFixture(input: unknown, source: string, nowMs: number, budget: StoreBudget = new StoreBudget(), trusted = false): Promise<Store> {
  let data: FixtureParts;
  let record: <K extends RecordKind>(kind: K, index: number, value: unknown) => RecordOf<K>;
  if (trusted) {
    data = input as FixtureParts;
    record = <K extends RecordKind>(_kind: K, _index: number, value: unknown) => value as RecordOf<K>;
  } else {
    const check = await import('./fixture-check.js');
    data = check.fixtureParts(input, source);
    record = check.recordChecker(source);
  }
  const store = new Store(budget);
  const now = formatDateTime(nowMs);
  const shiftMs = data.relative_to ? nowMs - parseDateTime(canonicalDateTime(data.relative_to)) : 0;
  /** A stored time moved by the fixture's shift (`relative_to`). */
  const at = (value: string): string => {
    if (shiftMs === 0) return value;
    const micros = parseDateTimeMicros(value) + shiftMs * 1000;
    return formatDateTime(Math.floor(micros / 1000), ((micros % 1000) + 1000) % 1000);
  };
  const atOptional = (value: string | undefined) => (value === undefined ? undefined : at(value));

  /** What a record that could not be stored is reported as: its id used twice only when that was the cause (issue 29, finding 5). */
  const loadError = (kind: string, index: number, id: string, error: unknown) => {
    if (error instanceof FakehandsError && error.code === 'storage_full') return fixtureError(source, `${kind}[${index}]: ${error.message}`);
    if ((error as Error).message?.includes('is already taken')) return fixtureError(source, `${kind}[${index}].id: the id "${id}" is used twice`);
    return fixtureError(source, `${kind}[${index}]: ${(error as Error).message}`);
  };
  /** Stores a validated record at once (no await per record: a fixture loads in one go), naming its path when its id is taken. */
  const insertNow = <T>(kind: string, index: number, id: string, store_: () => T): T => {
    try {
      return store_();
    } catch (error) {
      throw loadError(kind, index, id, error);
    }
  };
  /** Stores a record, naming its path when its id is taken. */
  const insert = async <T>(kind: string, index: number, id: string, store_: () => Promise<T>): Promise<T> => {
    try {
      return await store_();
    } catch (error) {
      throw loadError(kind, index, id, error);
    }
  };

  for (const [i, value] of data.sandbox_specs.entries()) {
    const parsed = record('sandbox_specs', i, value);
    const spec = { ...parsed, created_at: at(parsed.created_at) };
    insertNow('sandbox_specs', i, spec.id, () => store.sandboxSpecs.insertValidated(spec, sizeFor(parsed, spec)));
  }
  store.defaultSandboxSpecId = store.sandboxSpecs.orderings.all.size > 0 ? (record('sandbox_specs', 0, data.sandbox_specs[0]).id) : null;
  for (const [i, value] of data.sandboxes.entries()) {
    const sandbox = record('sandboxes', i, value);
    if (!store.sandboxSpecs.get(sandbox.sandbox_spec_id)) {
      throw fixtureError(source, `sandboxes[${i}].sandbox_spec_id: no sandbox spec has the id "${sandbox.sandbox_spec_id}"`);
    }
    const storedSandbox = { ...sandbox, created_at: at(sandbox.created_at), status_changed_at: atOptional(sandbox.status_changed_at) ?? now };
    insertNow('sandboxes', i, sandbox.id, () => store.sandboxes.insertValidated(storedSandbox, sizeFor(sandbox, storedSandbox)));
  }
  for (const [i, value] of data.conversations.entries()) {
    const conversation = record('conversations', i, value);
    if (conversation.version === 'V1' && !toHyphenatedUuid(conversation.id)) {
      throw fixtureError(source, `conversations[${i}].id: a V1 conversation needs a UUID id, got "${conversation.id}"`);
    }
    const id = toHyphenatedUuid(conversation.id) ?? conversation.id;
    const parent = conversation.parent_conversation_id && (toHyphenatedUuid(conversation.parent_conversation_id) ?? conversation.parent_conversation_id);
    const storedConversation = {
      ...conversation, id, parent_conversation_id: parent,
      created_at: at(conversation.created_at), updated_at: at(conversation.updated_at),
      agent_started_at: at(conversation.agent_started_at ?? conversation.created_at),
    };
    const stored = insertNow('conversations', i, id, () => store.conversations.insertValidated(storedConversation, sizeFor(conversation, storedConversation)));
    // A parent may be gone (deleting a conversation leaves its sub-conversations, as the real
    // service does): the link is kept, and such a state loads again.
    if (parent) store.linkChild(parent, stored.id);
  }
  for (const [i, value] of data.start_tasks.entries()) {
    const task = record('start_tasks', i, value);
    const storedTask = { ...task, created_at: at(task.created_at), updated_at: at(task.updated_at), status_changed_at: atOptional(task.status_changed_at) ?? now };
    insertNow('start_tasks', i, task.id, () => store.startTasks.insertValidated(storedTask, sizeFor(task, storedTask)));
  }
  for (const [i, value] of data.events.entries()) {
    const event = record('events', i, value);
    const conversation = toHyphenatedUuid(event.conversation_id) ?? event.conversation_id;
    if (!store.conversations.get(conversation)) throw fixtureError(source, `events[${i}].conversation_id: no conversation has the id "${event.conversation_id}"`);
    const created = at(event.created_at);
    await insert('events', i, event.id, () => store.appendEvent({
      ...event, conversation_id: conversation, created_at: created, event: { ...event.event, timestamp: naiveTimestamp(created) },
    }));
  }
  await store.setProviderTokens(data.provider_tokens);
  await store.setMcpConfig(data.mcp_config);
  await store.setSettings(data.settings);
  const names = new Set<string>();
  for (const [i, secret] of data.secrets.entries()) {
    if (names.has(secret.name)) throw fixtureError(source, `secrets[${i}].name: the name "${secret.name}" is used twice`);
    names.add(secret.name);
  }
  await store.setCustomSecrets(data.secrets);
  store.git = data.git ?? null;
  return store;
}
