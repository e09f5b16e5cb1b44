import type { z } from 'zod';
import { Fixture, type FixtureInput, type SandboxRecord } from '../schemas/records.js';
import { formatDateTime } from '../schemas/datetime.js';
import { toHyphenatedUuid } from './ids.js';
import { REDACTED } from './redact.js';
import { Store } from './store.js';

/** A fixture that cannot be loaded: names the source and the bad path. */
export class FixtureError extends Error {
  constructor(source: string, problem: string) {
    super(`Failed to load the fixture ${source}: ${problem}. Fix the fixture, or pass fixture: "default" or "empty".`);
    this.name = 'FixtureError';
  }
}

/** Writes a zod issue path as `sandboxes[3].status`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  return out || '(root)';
}

function describeIssue(issue: z.core.$ZodIssue): string {
  return `${formatPath(issue.path)}: ${issue.message}`;
}

/** Validates a fixture against the schemas and its references; throws a `FixtureError` naming the first bad path. */
export function parseFixture(input: unknown, source: string): Fixture {
  const result = Fixture.safeParse(input);
  if (!result.success) throw new FixtureError(source, result.error.issues.slice(0, 3).map(describeIssue).join('; '));
  const fixture = result.data;
  const specs = new Set<string>();
  const seen = (kind: keyof Fixture, ids: Set<string>, id: string, index: number) => {
    if (ids.has(id)) throw new FixtureError(source, `${kind}[${index}].id: the id "${id}" is used twice`);
    ids.add(id);
  };
  fixture.sandbox_specs.forEach((spec, i) => seen('sandbox_specs', specs, spec.id, i));
  const sandboxes = new Set<string>();
  fixture.sandboxes.forEach((sandbox, i) => {
    seen('sandboxes', sandboxes, sandbox.id, i);
    if (!specs.has(sandbox.sandbox_spec_id)) {
      throw new FixtureError(source, `sandboxes[${i}].sandbox_spec_id: no sandbox spec has the id "${sandbox.sandbox_spec_id}"`);
    }
  });
  const conversations = new Set<string>();
  fixture.conversations.forEach((conversation, i) => {
    if (conversation.version === 'V1' && !toHyphenatedUuid(conversation.id)) {
      throw new FixtureError(source, `conversations[${i}].id: a V1 conversation needs a UUID id, got "${conversation.id}"`);
    }
    conversation.id = toHyphenatedUuid(conversation.id) ?? conversation.id;
    seen('conversations', conversations, conversation.id, i);
  });
  fixture.conversations.forEach((conversation, i) => {
    const parent = conversation.parent_conversation_id;
    if (parent !== null && !conversations.has(toHyphenatedUuid(parent) ?? parent)) {
      throw new FixtureError(source, `conversations[${i}].parent_conversation_id: no conversation has the id "${parent}"`);
    }
  });
  const tasks = new Set<string>();
  fixture.start_tasks.forEach((task, i) => seen('start_tasks', tasks, task.id, i));
  return fixture;
}

/**
 * Fills a new store from a parsed fixture. Records without `status_changed_at` entered their
 * status at `nowMs`, so a STARTING sandbox of a fixture is still starting when it loads.
 */
export async function storeFromFixture(fixture: Fixture, nowMs: number): Promise<Store> {
  const store = new Store();
  const now = formatDateTime(nowMs);
  for (const spec of fixture.sandbox_specs) await store.sandboxSpecs.insert(spec);
  store.defaultSandboxSpecId = fixture.sandbox_specs[0]!.id;
  for (const sandbox of fixture.sandboxes) {
    await store.sandboxes.insert({ ...sandbox, status_changed_at: sandbox.status_changed_at ?? now });
  }
  for (const conversation of fixture.conversations) {
    const record = await store.conversations.insert({
      ...conversation,
      parent_conversation_id: conversation.parent_conversation_id && (toHyphenatedUuid(conversation.parent_conversation_id) ?? conversation.parent_conversation_id),
      agent_started_at: conversation.agent_started_at ?? conversation.created_at,
    });
    if (record.parent_conversation_id) {
      const children = store.childrenOf.get(record.parent_conversation_id) ?? [];
      children.push(record.id);
      store.childrenOf.set(record.parent_conversation_id, children);
    }
  }
  for (const task of fixture.start_tasks) {
    await store.startTasks.insert({ ...task, status_changed_at: task.status_changed_at ?? now });
  }
  store.providerTokens = structuredClone(fixture.provider_tokens);
  store.mcpConfig = structuredClone(fixture.mcp_config);
  return store;
}

/**
 * Everything a store holds, as a fixture, each sandbox seen through `sandboxNow` (its status at
 * the time asked). Provider tokens are redacted: a snapshot never holds a secret.
 */
export function fixtureOf(store: Store, sandboxNow: (sandbox: SandboxRecord) => SandboxRecord = (s) => s): Fixture {
  const tokens: Fixture['provider_tokens'] = {};
  for (const [provider, token] of Object.entries(store.providerTokens) as [keyof Fixture['provider_tokens'], NonNullable<Fixture['provider_tokens'][keyof Fixture['provider_tokens']]>][]) {
    tokens[provider] = { ...token, token: token.token ? REDACTED : null };
  }
  return structuredClone({
    sandbox_specs: store.sandboxSpecs.all(),
    sandboxes: store.sandboxes.all().map(sandboxNow),
    conversations: store.conversations.all(),
    start_tasks: store.startTasks.all(),
    provider_tokens: tokens,
    mcp_config: store.mcpConfig,
  });
}

export type { FixtureInput };
