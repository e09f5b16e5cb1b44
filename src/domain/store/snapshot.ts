/**
 * A store back into a fixture: `fake.snapshot()`, `GET /_fakehands/state`, and what change
 * listeners read (`onChange`). Loaded by the runner the first time one of them asks.
 */
import type { Fixture } from '../../schemas/fixture.js';
import type { SandboxRecord } from '../../schemas/records.js';
import type { ChangedEntity, SnapshotPart } from './events.js';
import { REDACTED, redactMcpConfig, redactSecrets } from './redact.js';
import type { Store } from './store.js';

/**
 * Everything a store holds, as a fixture, each sandbox seen through `sandboxNow` (its status at
 * the time asked). Provider tokens are redacted: a snapshot never holds a secret.
 */
export function fixtureOf(store: Store, sandboxNow: (sandbox: SandboxRecord) => SandboxRecord = (record) => record): Fixture {
  const world = partOf(store, 'agent_world') as Fixture['agent_world'];
  const shell = store.shell.record();
  return structuredClone({
    sandbox_specs: store.sandboxSpecs.all(),
    sandboxes: store.sandboxes.all().map(sandboxNow),
    conversations: store.conversations.all(),
    start_tasks: store.startTasks.all().map((task) => ({ ...task, request: redactSecrets(task.request) as typeof task.request })),
    events: store.events.all(),
    provider_tokens: partOf(store, 'provider_tokens') as Fixture['provider_tokens'],
    mcp_config: partOf(store, 'mcp_config') as Fixture['mcp_config'],
    settings: partOf(store, 'settings') as Fixture['settings'],
    secrets: partOf(store, 'secrets') as Fixture['secrets'],
    ...(store.git ? { git: store.git } : {}),
    ...(world ? { agent_world: world } : {}),
    ...(shell ? { shell } : {}),
  });
}

/**
 * One part of a store's fixture (`fixtureOf`), its secrets redacted, as a new value: what the state
 * file's change log writes for a change of that part; `undefined` for an agent world never changed.
 */
export function partOf(store: Store, part: SnapshotPart): unknown {
  switch (part) {
    case 'provider_tokens': {
      const tokens: Fixture['provider_tokens'] = {};
      for (const [provider, token] of Object.entries(store.providerTokens) as [
        keyof Fixture['provider_tokens'],
        NonNullable<Fixture['provider_tokens'][keyof Fixture['provider_tokens']]>,
      ][]) {
        tokens[provider] = { ...token, token: token.token ? REDACTED : null };
      }
      return tokens;
    }
    case 'mcp_config':
      return redactMcpConfig(store.mcpConfig);
    case 'settings':
      // The one rule, over the whole record: its keys, profiles, MCP servers and agent settings (a condenser's LLM key, `mcpServers.*.env`) alike.
      return store.settings && redactSecrets(store.settings);
    case 'secrets':
      return store.customSecrets.map((secret) => ({ ...secret, value: REDACTED }));
    case 'agent_world':
      // Its provider connections' keys, and any secret an agent profile or a misc setting holds, masked by the same rule.
      return store.agentWorld ? redactSecrets(store.agentWorld) : undefined;
  }
}

/** One record as a fixture holds it (a start task's request with its secrets redacted), or `undefined` when it is gone. */
export function recordOf(state: { store: Store }, entity: ChangedEntity, id: string): { id: string } | undefined {
  const { store } = state;
  switch (entity) {
    case 'sandbox_spec':
      return store.sandboxSpecs.get(id);
    case 'sandbox':
      return store.sandboxes.get(id);
    case 'conversation':
      return store.conversations.get(id);
    case 'event':
      return store.events.get(id);
    case 'start_task': {
      const task = store.startTasks.get(id);
      if (!task) return undefined;
      const redacted: typeof task = { ...task, request: redactSecrets(task.request) as typeof task.request };
      return redacted;
    }
    default:
      return undefined;
  }
}
