/**
 * A recording read back as a fixture (`createFake({ recording })`, `fakehands serve
 * --from-recording`): the OpenHands hosts' exchanges of its HAR read into a `TrafficModel`, each
 * conversation's ZIP read with the replay's reader (`trajectoryZipContents`: bounded, a slice at a
 * time), then records made of them with their recorded ids and times, so the same screens come up:
 * the agent server's conversations with their events (on a RUNNING sandbox whose key is the fake's
 * own), the app server's conversations, sandboxes and specs, the user's settings, and the custom
 * secrets by name only (each value masked). Exchanges of other hosts (a page's fonts, telemetry)
 * are left out and counted. Pure: no Node built-in.
 */
import { trajectoryZipContents } from '../agent/replay-zip.js';
import { isRefusal } from '../store/refusal.js';
import { FakehandsError } from '../store/errors.js';
import { REDACTED, redactSecrets } from '../store/redact.js';
import { LLM_CREDENTIALS } from '../agent/host-record.js';
import { toHyphenatedUuid } from '../store/ids.js';
import type { FixtureInput } from '../../schemas/fixture.js';
import { bodyText, harProblem, isOpenHandsPath, parsedJson, type HarEntry, type Recording } from './har.js';
import { type JsonObject, TrafficModel, type SeenConversation } from './traffic.js';

/** A recording as a fixture, and what was read of it. */
export interface RecordingImport {
  /** The fixture the fake loads. */
  fixture: FixtureInput;
  /** Exchanges read, of the OpenHands hosts. */
  exchanges: number;
  /** The OpenHands hosts (`host:port`). */
  hosts: string[];
  /** Exchanges left out: of other hosts. */
  skipped: number;
  /** The other hosts. */
  skippedHosts: string[];
  /** Conversations made, with events. */
  conversations: number;
  /** Events made. */
  events: number;
}

/** The id of the RUNNING sandbox that holds the agent server's own conversations. */
export const RECORDED_AGENT_SANDBOX = 'recorded-agent-server';
/** The spec a sandbox gets when the recording names none. */
const RECORDED_SPEC = 'recorded';

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A recorded time with an offset (naive ones are UTC), or `null` when it is none. */
function timeOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?(?:\.\d{1,6})?)(Z|z|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (!match) return null;
  return `${match[1]}T${match[2]}${match[3] ?? 'Z'}`;
}

const AGENT_STATUSES = new Set(['paused', 'error', 'stuck', 'waiting_for_confirmation', 'idle', 'running', 'finished']);
const SANDBOX_STATUSES = new Set(['STARTING', 'RUNNING', 'PAUSED', 'ERROR']);
const TRIGGERS = new Set([
  'resolver',
  'gui',
  'suggested_task',
  'openhands_api',
  'slack',
  'microagent_management',
  'jira',
  'jira_dc',
  'linear',
]);
const PROVIDERS = new Set(['github', 'gitlab', 'bitbucket', 'bitbucket_data_center', 'forgejo', 'azure_devops', 'enterprise_sso']);

/** Reads the HAR's exchanges of the OpenHands hosts into `model`; counts the rest. */
function readEntries(
  entries: readonly HarEntry[],
  model: TrafficModel,
): Pick<RecordingImport, 'exchanges' | 'hosts' | 'skipped' | 'skippedHosts'> {
  const urlOf = (entry: HarEntry) => (URL.canParse(entry.request.url) ? new URL(entry.request.url) : null);
  const openhands = new Set<string>();
  for (const entry of entries) {
    const url = urlOf(entry);
    if (url && isOpenHandsPath(url.pathname)) openhands.add(url.host);
  }
  const skippedHosts = new Set<string>();
  let exchanges = 0;
  let skipped = 0;
  for (const entry of entries) {
    const url = urlOf(entry);
    if (!url || !openhands.has(url.host)) {
      skipped++;
      if (url) skippedHosts.add(url.host);
      continue;
    }
    exchanges++;
    for (const message of entry._webSocketMessages ?? [])
      if (message.type === 'receive' && message.opcode !== 2) model.frame(url, parsedJson(message.data));
    model.exchange({
      method: entry.request.method.toUpperCase(),
      url,
      status: entry.response.status,
      request: parsedJson(bodyText(entry.request.postData)),
      response: parsedJson(bodyText(entry.response.content)),
    });
  }
  return { exchanges, hosts: [...openhands].sort(), skipped, skippedHosts: [...skippedHosts].sort() };
}

/** The settings of a conversation's LLM worth keeping: all but its model and credentials, secrets masked. */
function llmOf(info: JsonObject | null): Record<string, unknown> {
  const llm = isObject(info?.agent) && isObject(info.agent.llm) ? info.agent.llm : {};
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(llm)) if (key !== 'model' && !LLM_CREDENTIALS.has(key)) kept[key] = value;
  return redactSecrets(kept) as Record<string, unknown>;
}

/** The text of a user message event. */
const userText = (event: JsonObject): string | null => {
  const message = isObject(event.llm_message) ? event.llm_message : null;
  if (event.kind !== 'MessageEvent' || event.source !== 'user' || !message || !Array.isArray(message.content)) return null;
  return message.content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
};

/** A conversation's record from its recorded `ConversationInfo` (and app conversation) and events. */
function conversationRecord(
  id: string,
  seen: SeenConversation | undefined,
  app: JsonObject | undefined,
  events: readonly JsonObject[],
  sandboxId: string,
  now: string,
): Record<string, unknown> {
  const info = seen?.info ?? null;
  const lastStatus = events.findLast((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'execution_status');
  const answered = str(info?.execution_status) ?? str(app?.execution_status);
  const answeredAt = timeOf(info?.updated_at) ?? timeOf(app?.updated_at);
  // The info is current when it was answered after the last new event was seen, or says the status the log ends with; else the log is newer.
  const current =
    answered !== null && (info === null || (seen !== undefined && seen.infoAt > seen.eventAt) || lastStatus?.value === answered);
  const status = current || !lastStatus ? answered : str(lastStatus.value);
  const updated = current && answeredAt !== null ? [answeredAt] : [answeredAt, timeOf(events.at(-1)?.timestamp)];
  const messages = events.map(userText).filter((text): text is string => text !== null);
  const first = timeOf(events[0]?.timestamp);
  const created = timeOf(info?.created_at) ?? timeOf(app?.created_at) ?? first ?? now;
  const agent = isObject(info?.agent) ? info.agent : {};
  const llm = isObject(agent.llm) ? agent.llm : {};
  const workspace = isObject(info?.workspace) ? info.workspace : {};
  const policy = isObject(info?.confirmation_policy) ? info.confirmation_policy : {};
  const secrets =
    isObject(info?.secret_registry) && isObject(info.secret_registry.secret_sources) ? info.secret_registry.secret_sources : {};
  // An app conversation's tags are the app server's (it adds its own, such as archiveworkspacepath); the agent server's otherwise.
  const tags = isObject(app?.tags) ? app.tags : isObject(info?.tags) ? info.tags : {};
  const parent = str(info?.parent_conversation_id) ?? str(app?.parent_conversation_id);
  return {
    id,
    version: 'V1',
    sandbox_id: sandboxId,
    created_by_user_id: str(app?.created_by_user_id),
    title: str(info?.title) ?? str(app?.title),
    selected_repository: str(app?.selected_repository),
    selected_branch: str(app?.selected_branch),
    git_provider: PROVIDERS.has(str(app?.git_provider) ?? '') ? app?.git_provider : null,
    trigger: TRIGGERS.has(str(app?.trigger) ?? '') ? app?.trigger : null,
    pr_number: Array.isArray(app?.pr_number) ? app.pr_number.filter(Number.isInteger) : [],
    llm_model: str(llm.model) ?? str(app?.llm_model),
    parent_conversation_id: parent && (toHyphenatedUuid(parent) ?? null),
    public: typeof app?.public === 'boolean' ? app.public : null,
    tags: Object.fromEntries(Object.entries(tags).filter(([, v]) => typeof v === 'string')),
    has_initial_message: messages.length > 0,
    agent_turns: messages.length,
    messages,
    ...(status !== null && AGENT_STATUSES.has(status) ? { agent_status: status } : {}),
    ...(policy.kind === 'AlwaysConfirm' ? { agent_confirm: true } : {}),
    ...(llm.stream === true ? { agent_stream: true } : {}),
    agent_host: {
      created_here: app === undefined,
      agent_kind: str(agent.kind) ?? 'Agent',
      ...(str(workspace.working_dir) ? { working_dir: workspace.working_dir } : {}),
      ...(Number.isInteger(info?.max_iterations) && (info?.max_iterations as number) > 0 ? { max_iterations: info?.max_iterations } : {}),
      ...(typeof info?.stuck_detection === 'boolean' ? { stuck_detection: info.stuck_detection } : {}),
      security_analyzer: isObject(info?.security_analyzer) ? redactSecrets(info.security_analyzer) : null,
      secret_names: Object.keys(secrets),
      leaf_event_id: str(info?.leaf_event_id),
      forked_from_conversation_id: str(info?.forked_from_conversation_id),
      forked_from_event_id: str(info?.forked_from_event_id),
      llm: llmOf(info),
      ...recordedOf(seen, current, events, lastStatus),
    },
    created_at: created,
    updated_at: [...updated, created]
      .filter((t): t is string => t !== null)
      .sort()
      .at(-1),
  };
}

/**
 * What the server answered that the fake does not make from its records, while the log is the one
 * it had then: the info's `stats` when the info is current, a socket's last `full_state` when it
 * came after the last new event or says the status the log ends with.
 */
function recordedOf(
  seen: SeenConversation | undefined,
  current: boolean,
  events: readonly JsonObject[],
  lastStatus: JsonObject | undefined,
) {
  const stats = current && isObject(seen?.info?.stats) && isObject(seen.info.stats.usage_to_metrics) ? seen.info.stats : undefined;
  const state = seen?.fullState;
  const fullState =
    state && (seen.fullStateAt > seen.eventAt || (lastStatus !== undefined && state.execution_status === lastStatus.value))
      ? state
      : undefined;
  if (stats === undefined && fullState === undefined) return {};
  return { recorded: { events: events.length, ...(stats ? { stats } : {}), ...(fullState ? { full_state: fullState } : {}) } };
}

/** The agent server's port a sandbox's `exposed_urls` name (`AGENT_SERVER`), else 8000. */
function agentPortOf(sandbox: JsonObject): number {
  const urls = Array.isArray(sandbox.exposed_urls) ? sandbox.exposed_urls : [];
  const agent = urls.find((u) => isObject(u) && u.name === 'AGENT_SERVER') as JsonObject | undefined;
  const url = str(agent?.url);
  const port = url && URL.canParse(url) ? Number(new URL(url).port) : Number.NaN;
  return Number.isInteger(port) && port > 0 ? port : 8000;
}

/** The user's settings as the store keeps them, from a recorded answer (legacy flat or `/api/v1/settings`'s); secrets by their flags only. */
function settingsOf(answer: JsonObject | null): Record<string, unknown> | null {
  if (answer === null) return null;
  const out: Record<string, unknown> = {};
  const copy = (key: string, ok: (v: unknown) => boolean, from: unknown = answer[key]) => {
    if (from !== undefined && ok(from)) out[key] = from;
  };
  const nullableString = (v: unknown) => v === null || typeof v === 'string';
  for (const key of ['language', 'agent', 'security_analyzer', 'llm_model', 'llm_base_url', 'email', 'git_user_name', 'git_user_email'])
    copy(key, nullableString);
  for (const key of ['confirmation_mode', 'user_consents_to_analytics', 'email_verified'])
    copy(key, (v) => v === null || typeof v === 'boolean');
  for (const key of ['enable_default_condenser', 'enable_sound_notifications', 'enable_proactive_conversation_starters', 'v1_enabled'])
    copy(key, (v) => typeof v === 'boolean');
  copy('max_iterations', (v) => v === null || Number.isInteger(v));
  const agent = isObject(answer.agent_settings) ? answer.agent_settings : null;
  const llm = isObject(agent?.llm) ? agent.llm : null;
  if (llm) {
    copy('llm_model', nullableString, llm.model);
    copy('llm_base_url', nullableString, llm.base_url);
  }
  const conversation = isObject(answer.conversation_settings) ? answer.conversation_settings : null;
  if (conversation) {
    copy('max_iterations', (v) => Number.isInteger(v), conversation.max_iterations);
    copy('confirmation_mode', (v) => typeof v === 'boolean', conversation.confirmation_mode);
  }
  if (answer.llm_api_key_set === true) out.llm_api_key = REDACTED;
  if (answer.search_api_key_set === true) out.search_api_key = REDACTED;
  return out;
}

/** A sandbox spec from a recorded one, or one made for an id the recording only names. */
function specOf(id: string, recorded: JsonObject | undefined, now: string): Record<string, unknown> {
  const env = isObject(recorded?.initial_env) ? recorded.initial_env : {};
  return {
    id,
    command: Array.isArray(recorded?.command) ? recorded.command.filter((c) => typeof c === 'string') : null,
    created_at: timeOf(recorded?.created_at) ?? now,
    initial_env: redactSecrets(Object.fromEntries(Object.entries(env).filter(([, v]) => typeof v === 'string'))),
    working_dir: str(recorded?.working_dir) ?? '/workspace',
  };
}

/**
 * The fixture a recording seeds a fake with, and what was read; throws an `invalid_options`
 * `FakehandsError` naming the problem for a recording that is no HAR or whose ZIP is no conversation export.
 * @example
 * const { fixture, skipped } = await fixtureOfRecording({ har }, { apiKey: 'fakehands-dev-key' })
 */
export async function fixtureOfRecording(recording: Recording, options: { apiKey: string; now?: string }): Promise<RecordingImport> {
  const problem = harProblem(recording.har);
  if (problem) throw new FakehandsError('invalid_options', `invalid recording: ${problem}`);
  const now = options.now ?? new Date().toISOString();
  const model = new TrafficModel();
  const read = readEntries(recording.har.log.entries, model);
  // Each conversation's export: its events in the log's order, its ConversationInfo.
  const exported = new Map<string, JsonObject[]>();
  for (const [name, bytes] of Object.entries(recording.conversations ?? {})) {
    const contents = await trajectoryZipContents(bytes);
    if (isRefusal(contents))
      throw new FakehandsError(
        'invalid_options',
        `invalid recording: conversations/${name}.zip: ${contents.errors[0]?.msg ?? contents.message}`,
      );
    const id = str(contents.baseState?.id) ?? name;
    const seen = model.conversation(id);
    // The HAR's latest answer, when it has one, says when it came; the export's is the same answer.
    if (contents.baseState && seen.info === null) seen.info = contents.baseState;
    exported.set(toHyphenatedUuid(id) ?? id, contents.events as JsonObject[]);
  }
  const ids = new Set([...model.conversations.keys(), ...model.appConversations.keys()]);
  const sandboxes: Record<string, unknown>[] = [];
  const specIds = new Set<string>();
  let keyCount = 0;
  for (const sandbox of model.sandboxes.values()) {
    if (!SANDBOX_STATUSES.has(str(sandbox.status) ?? '')) continue;
    specIds.add(sandbox.sandbox_spec_id as string);
    sandboxes.push({
      id: sandbox.id,
      created_by_user_id: str(sandbox.created_by_user_id),
      sandbox_spec_id: sandbox.sandbox_spec_id,
      status: sandbox.status,
      session_api_key: `recorded-sandbox-key-${++keyCount}`,
      agent_port: agentPortOf(sandbox),
      created_at: timeOf(sandbox.created_at) ?? now,
    });
  }
  const conversations: Record<string, unknown>[] = [];
  const events: Record<string, unknown>[] = [];
  const usedEventIds = new Set<string>();
  let needsAgentSandbox = false;
  for (const id of ids) {
    const uuid = toHyphenatedUuid(id);
    if (!uuid) continue;
    const seen = model.conversations.get(id);
    const app = model.appConversations.get(id);
    const log = exported.get(id) ?? (seen ? TrafficModel.ordered(seen) : []);
    let sandboxId = RECORDED_AGENT_SANDBOX;
    if (app) {
      sandboxId = str(app.sandbox_id) ?? RECORDED_AGENT_SANDBOX;
      const status = str(app.sandbox_status);
      if (!sandboxes.some((s) => s.id === sandboxId) && status && SANDBOX_STATUSES.has(status))
        sandboxes.push({
          id: sandboxId,
          sandbox_spec_id: RECORDED_SPEC,
          status,
          session_api_key: `recorded-sandbox-key-${++keyCount}`,
          agent_port: 8000,
          created_at: timeOf(app.created_at) ?? now,
        });
    } else needsAgentSandbox = true;
    const record = conversationRecord(uuid, seen, app, log, sandboxId, now);
    conversations.push(record);
    for (const event of log) {
      const eventId = usedEventIds.has(String(event.id)) ? globalThis.crypto.randomUUID() : String(event.id);
      usedEventIds.add(eventId);
      events.push({
        id: eventId,
        conversation_id: uuid,
        created_at: timeOf(event.timestamp) ?? record.created_at,
        event: { ...event, id: eventId },
      });
    }
  }
  if (needsAgentSandbox)
    sandboxes.unshift({
      id: RECORDED_AGENT_SANDBOX,
      sandbox_spec_id: RECORDED_SPEC,
      status: 'RUNNING',
      session_api_key: options.apiKey,
      agent_port: 8000,
      created_at: conversations.map((c) => c.created_at as string).sort()[0] ?? now,
    });
  if (sandboxes.some((s) => s.sandbox_spec_id === RECORDED_SPEC) || specIds.size === 0) specIds.add(RECORDED_SPEC);
  const recordedSpecs = [...model.specs.keys()];
  const specs = [...new Set([...recordedSpecs, ...specIds])].map((id) => specOf(id, model.specs.get(id), now));
  const fixture: FixtureInput = {
    sandbox_specs: specs as FixtureInput['sandbox_specs'],
    sandboxes: sandboxes as FixtureInput['sandboxes'],
    conversations: conversations as FixtureInput['conversations'],
    events: events as FixtureInput['events'],
    settings: settingsOf(model.settings) as FixtureInput['settings'],
    secrets: [...model.secrets].map(([name, description]) => ({ name, description, value: REDACTED })),
  };
  return { ...read, fixture, conversations: conversations.length, events: events.length };
}
