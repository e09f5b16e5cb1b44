/**
 * A store back into a fixture: `fake.snapshot()`, `GET /_fakehands/state`, and what change
 * listeners read (`onChange`). Loaded by the runner the first time one of them asks.
 */
import type { Fixture } from '../../schemas/fixture.js';
import type { SandboxRecord } from '../../schemas/records.js';
import type { ChangedEntity } from './events.js';
import { REDACTED, redactSecrets } from './redact.js';
import type { Store } from './store.js';

/**
 * Everything a store holds, as a fixture, each sandbox seen through `sandboxNow` (its status at
 * the time asked). Provider tokens are redacted: a snapshot never holds a secret.
 */
export function fixtureOf(store: Store, sandboxNow: (sandbox: SandboxRecord) => SandboxRecord = (record) => record): Fixture {
  const tokens: Fixture['provider_tokens'] = {};
  for (const [provider, token] of Object.entries(store.providerTokens) as [
    keyof Fixture['provider_tokens'],
    NonNullable<Fixture['provider_tokens'][keyof Fixture['provider_tokens']]>,
  ][]) {
    tokens[provider] = { ...token, token: token.token ? REDACTED : null };
  }
  return structuredClone({
    sandbox_specs: store.sandboxSpecs.all(),
    sandboxes: store.sandboxes.all().map(sandboxNow),
    conversations: store.conversations.all(),
    start_tasks: store.startTasks.all().map((task) => ({ ...task, request: redactSecrets(task.request) as typeof task.request })),
    events: store.events.all(),
    provider_tokens: tokens,
    mcp_config: redactSecrets(store.mcpConfig) as Fixture['mcp_config'],
    // The one rule, over the whole record: its keys, profiles, MCP servers and agent settings (a condenser's LLM key, `mcpServers.*.env`) alike.
    settings: store.settings && (redactSecrets(store.settings) as NonNullable<Fixture['settings']>),
    secrets: store.customSecrets.map((secret) => ({ ...secret, value: REDACTED })),
    ...(store.git ? { git: store.git } : {}),
    // Its provider connections' keys, and any secret an agent profile or a misc setting holds, masked by the same rule.
    ...(store.agentWorld ? { agent_world: redactSecrets(store.agentWorld) as NonNullable<Fixture['agent_world']> } : {}),
  });
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
