/**
 * A conversation's `ConversationInfo` as JSON text, written without the object and faster than
 * `JSON.stringify` writes it (issue 31: Node 20's took 7-11 µs of a ~48 µs create for the 1.5 KB
 * answer, the object's making 3 more), to the same text byte for byte. Most of that text is two
 * fields that are the same from one conversation to the next: `agent` (its kind and model: written
 * once per pair) and `stats` (a new conversation's empty metrics: `keptText`, a text seen twice in
 * a row kept with a copy of its value parsed back from it, used for a value with exactly that
 * copy's keys, in order, and values). Hand-written (no library writes JSON from kept parts);
 * `test/agent-server/info-json.test.ts` compares it with the general path on many shapes.
 */
import type { ConversationRecord } from '../../schemas/records.js';
import { readyProjectDir } from '../conversations/conversation-ops.js';
import type { DomainState } from '../store/state.js';
import {
  acpAgentInfo,
  agentInfo,
  executionStatusOf,
  INFO_TAIL,
  INFO_TAIL_RUNTIME_TEXT,
  INFO_TAIL_TEXT,
  RUNTIME_AVAILABLE,
} from './agent-server.js';
import { hostState, lastUserMessageId } from './conversations.js';
import { leafOf } from './event-tree.js';
import { DEFAULT_AGENT_MODEL, hasLlmCall, hasUserMessage, statsOfEvents, statsStartOf } from './vocabulary-stats.js';
import { conversationStats } from './conversation-stats.js';
import type { AgentEvent } from './status.js';

/** A kept value, walked without a list of keys made per match: an object's keys and values side by side. */
type Kept = string | number | boolean | null | { keys: readonly string[]; values: readonly Kept[] } | { items: readonly Kept[] };

/** Texts kept per field: at most this many, the newest first. */
const KEPT_PER_FIELD = 8;
/** Per field: its kept values with their texts; and the text it had last that is not kept yet. */
const kept = new Map<string, { value: Kept; text: string }[]>();
const lastText = new Map<string, string>();

/** A string JSON writes with escapes (a quote, a backslash, a control character, a surrogate half). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A plain object or list: what JSON writes by walking it (anything else, a class or a `toJSON`, `JSON.stringify` writes whole). */
function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value)) return prototype === Array.prototype;
  return prototype === Object.prototype && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** The kept form of a value parsed from JSON text (plain data only). */
function keep(value: unknown): Kept {
  if (value === null || typeof value !== 'object') return value as Kept;
  if (Array.isArray(value)) return { items: value.map(keep) };
  const keys = Object.keys(value);
  return { keys, values: keys.map((key) => keep((value as Record<string, unknown>)[key])) };
}

/** Whether `JSON.stringify(value)` is the text `kept` was parsed from: the same kinds, keys in the same order, the same values (`false` when in doubt). */
function matches(value: unknown, kept: Kept): boolean {
  if (kept === null || typeof kept !== 'object') return value === kept;
  if (value === null || typeof value !== 'object' || !isPlain(value)) return false;
  if ('items' in kept) {
    if (!Array.isArray(value) || value.length !== kept.items.length) return false;
    for (let i = 0; i < value.length; i++) if (!matches(value[i], kept.items[i]!)) return false;
    return true;
  }
  if (Array.isArray(value)) return false;
  const map = value as Record<string, unknown>;
  let i = 0;
  // `for...in` walks a plain object's own keys in `JSON.stringify`'s order (nothing is inherited from `Object.prototype`).
  for (const key in map) {
    if (key !== kept.keys[i] || !matches(map[key], kept.values[i]!)) return false;
    i++;
  }
  return i === kept.keys.length;
}

/** A field's value (`stats`) as `JSON.stringify` writes it, from the kept texts when one matches. */
export function keptText(key: string, value: object): string {
  const texts = kept.get(key);
  if (texts) for (const entry of texts) if (matches(value, entry.value)) return entry.text;
  const text = JSON.stringify(value);
  // The same text twice in a row: kept (its value parsed back, so nothing a caller changes later changes it).
  if (lastText.get(key) === text) {
    const list = texts ?? [];
    list.unshift({ value: keep(JSON.parse(text)), text });
    if (list.length > KEPT_PER_FIELD) list.pop();
    kept.set(key, list);
    lastText.delete(key);
  } else {
    lastText.set(key, text);
  }
  return text;
}

/** A value as `JSON.stringify` writes it (`undefined` for what JSON leaves out of an object: `undefined`, a function, a symbol). */
function valueText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'object':
      return value === null ? 'null' : JSON.stringify(value);
    default:
      return JSON.stringify(value);
  }
}

/** `"key":value` after a comma, as `JSON.stringify` writes a field of an object after the first (nothing for a value it leaves out; `key` needs no escape). */
function field(key: string, value: unknown): string {
  const text = valueText(value);
  return text === undefined ? '' : `,"${key}":${text}`;
}

/** A map's JSON text: `{}` at once for an empty plain one. */
function mapText(map: object): string {
  if (Object.getPrototypeOf(map) === Object.prototype) {
    let empty = true;
    for (const _ in map) {
      empty = false;
      break;
    }
    if (empty && typeof (map as { toJSON?: unknown }).toJSON !== 'function') return '{}';
  }
  return JSON.stringify(map);
}

/** The longest log whose events are looked at for an LLM call before its stats are read (a longer one is read through the stats' cache). */
const SHORT_LOG = 8;
/** Most texts of a model's empty stats kept. */
const KEPT_EMPTY_STATS = 256;
const emptyStatsTexts = new Map<string, string>();

/**
 * The text of the conversation's `stats`: for a short log without an LLM call (a new conversation),
 * `statsOfEvents([], model)`'s, written once per model; else the stats read (`conversationStats`),
 * written from the kept texts.
 */
function statsText(state: DomainState, conversation: ConversationRecord, model: string): string {
  const all = state.store.eventIdsOf(conversation.id);
  const start = statsStartOf(conversation);
  const ids = start === 0 ? all : all.slice(start);
  const events = ids.length <= SHORT_LOG ? eventsOf(state, ids) : null;
  const quiet = (conversation.agent_host?.llm_calls.length ?? 0) === 0;
  if (events !== null && quiet && !hasLlmCall(events, model) && !hasUserMessage(events)) {
    let text = emptyStatsTexts.get(model);
    if (text === undefined) {
      text = JSON.stringify(statsOfEvents([], model));
      if (emptyStatsTexts.size >= KEPT_EMPTY_STATS) emptyStatsTexts.clear();
      emptyStatsTexts.set(model, text);
    }
    return text;
  }
  return keptText('stats', conversationStats(state, conversation));
}

/** The events of these ids. */
const eventsOf = (state: DomainState, ids: readonly string[]) => ids.map((id) => state.store.events.get(id)!.event as AgentEvent);

/** Most agent texts kept (one per agent kind and model). */
const KEPT_AGENTS = 256;
/** By model, then kind (no key text made per create). */
const agentTexts = new Map<string, Map<string, string>>();
let agentTextCount = 0;

/** The text of `agentInfo(kind, model, llm)`, written once per kind and model (the client's LLM settings, rare, each time). */
function agentText(kind: string, model: string, llm: Readonly<Record<string, unknown>>): string {
  for (const _ in llm) return JSON.stringify(agentInfo(kind, model, llm));
  let byKind = agentTexts.get(model);
  let text = byKind?.get(kind);
  if (text === undefined) {
    text = JSON.stringify(agentInfo(kind, model));
    if (agentTextCount >= KEPT_AGENTS) {
      agentTexts.clear();
      agentTextCount = 0;
      byKind = undefined;
    }
    if (byKind === undefined) agentTexts.set(model, (byKind = new Map()));
    byKind.set(kind, text);
    agentTextCount++;
  }
  return text;
}

/** The tail of an ACP conversation's info: no tool modules (written each time: ACP conversations are few). */
const acpTailText = (withRuntime: boolean) =>
  JSON.stringify({ ...INFO_TAIL, tool_module_qualnames: {}, runtime_info: withRuntime ? RUNTIME_AVAILABLE : null }).slice(1, -1);

/**
 * `JSON.stringify(hostConversationInfo(state, conversation, withRuntime))`, the same text, written without the
 * object: each field in `hostConversationInfo`'s order, from the same values (`agentInfo`'s text
 * once per kind and model; the stats from the texts kept). A shortcut of the general path, checked
 * against it on many conversations by `test/agent-server/info-json.test.ts`.
 * @example
 * return new JsonText(hostConversationInfoJson(state, conversation))
 */
export function hostConversationInfoJson(state: DomainState, conversation: ConversationRecord, withRuntime = false): string {
  const host = hostState(conversation);
  const workingDir = host.working_dir ?? readyProjectDir(state, conversation.id) ?? '/workspace/project';
  const model = conversation.llm_model ?? DEFAULT_AGENT_MODEL;
  const secrets = host.secret_names.length === 0 ? '{}' : secretSourcesText(host.secret_names);
  const children = state.store.childrenOf.get(conversation.id);
  const acp = host.agent_kind === 'ACPAgent';
  return (
    `{"id":${valueText(conversation.id)},"agent":${acp ? JSON.stringify(acpAgentInfo(host.acp, host.acp_model)) : agentText(host.agent_kind, model, host.llm)}` +
    `,"workspace":{"kind":"LocalWorkspace"${field('working_dir', workingDir)}}` +
    `,"persistence_dir":"workspace/conversations"${field('max_iterations', host.max_iterations)}${field('stuck_detection', host.stuck_detection)}` +
    `${field('execution_status', executionStatusOf(conversation))}` +
    `,"confirmation_policy":{"kind":"${conversation.agent_confirm ? 'AlwaysConfirm' : 'NeverConfirm'}"}` +
    `${field('security_analyzer', host.security_analyzer)}` +
    ',"activated_knowledge_skills":[],"blocked_actions":{},"blocked_messages":{}' +
    `,"stats":${statsText(state, conversation, model)}` +
    `,"secret_registry":{"secret_sources":${secrets}},"agent_state":{}${field('title', conversation.title)},"metrics":null` +
    `${field('created_at', conversation.created_at)}${field('updated_at', conversation.updated_at)}` +
    `${field('last_user_message_id', lastUserMessageId(state, conversation.id))}${field('leaf_event_id', leafOf(state, conversation))}` +
    `${field('forked_from_conversation_id', host.forked_from_conversation_id)}${field('forked_from_event_id', host.forked_from_event_id)}` +
    `${field('parent_conversation_id', conversation.parent_conversation_id)}` +
    `,"sub_conversation_ids":${children === undefined || children.length === 0 ? '[]' : JSON.stringify(children)}` +
    `${conversation.tags === undefined ? '' : `,"tags":${mapText(conversation.tags)}`}${field('current_model_id', host.acp_model)},${acp ? acpTailText(withRuntime) : withRuntime ? INFO_TAIL_RUNTIME_TEXT : INFO_TAIL_TEXT}}`
  );
}

/** `secret_registry.secret_sources` of secret names, as `hostConversationInfo` makes it (each value and description null). */
const secretSourcesText = (names: readonly string[]) =>
  JSON.stringify(Object.fromEntries(names.map((name) => [name, { description: null, value: null, kind: 'StaticSecret' }])));
