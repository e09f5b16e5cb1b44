/**
 * What a run's LLM calls cost (issue 32): the conversation's `ConversationStats`, read off its
 * event log, so what the socket, the agent server's `ConversationInfo` and the app server's
 * `metrics` show always agrees with the events published (software-agent-sdk
 * `openhands-sdk/openhands/sdk/conversation/conversation_stats.py`, `ConversationStats`;
 * `llm/utils/metrics.py`, `Metrics.add_cost`, `add_response_latency`, `add_token_usage`,
 * `get_snapshot`, `merge`).
 *
 * Which events are LLM calls, and what each used (deterministic, from the event alone and its place
 * in the log): an agent's `ActionEvent`s (one call per `llm_response_id`) and answer
 * (`MessageEvent`), under the agent's usage id; a `Condensation`, under `condenser`; a
 * `VisionInspectObservation`, under `vision-profile:<profile>` (`tool/builtins/vision_inspect.py`);
 * a `TokenEvent`, its token ids counted; an `LLMCompletionLogEvent`, the usage its log data
 * records under its own usage id and model (as the real telemetry logs the same response the
 * metrics count). Prompts grow with the log; the previous prompt of a usage is read from the cache.
 */
import type { AgentHostState, ConversationRecord } from '../../schemas/records.js';
import type { MetricsSnapshot, TokenUsage } from './metrics.js';

export type { MetricsSnapshot, TokenUsage } from './metrics.js';

/** An event of a log: its kind, id, timestamp and its kind's fields. */
type AgentEvent = Record<string, unknown> & { kind: string; id: string; timestamp: string };

/** The model of a conversation's agent when it names none. */
export const DEFAULT_AGENT_MODEL = 'litellm_proxy/anthropic/claude-sonnet-4-5-20250929';
/** The usage id of the agent's own LLM in a conversation the app server started (its agents' LLMs are `agent`). */
export const AGENT_USAGE_ID = 'agent';
/** The usage id of an LLM the client names none for (`LLM.usage_id`'s default). */
export const DEFAULT_USAGE_ID = 'default';

/**
 * The usage id the agent's LLM calls count under: the one the client gave its LLM, else `default`
 * on a conversation started on the agent server (openhands-sdk `llm/llm.py`, `usage_id`) and
 * `agent` on one the app server started.
 */
export function agentUsageIdOf(conversation: ConversationRecord): string {
  const host = conversation.agent_host;
  const given = host?.llm.usage_id;
  if (typeof given === 'string' && given !== '') return given;
  return host?.created_here ? DEFAULT_USAGE_ID : AGENT_USAGE_ID;
}

/**
 * Where a conversation's statistics start in its log: after what a fork copied, unless the fork
 * kept the source's statistics (`fork`'s `reset_metrics`).
 */
export function statsStartOf(conversation: ConversationRecord): number {
  const host = conversation.agent_host;
  return host === undefined || host.copied_metrics ? 0 : host.copied_events;
}
/** The condenser's usage id. */
export const CONDENSER_USAGE_ID = 'condenser';
/** Tokens of the system prompt and the tools, before any event. */
const PROMPT_BASE = 1_800;
/** Tokens each earlier event of the log adds to a prompt. */
const PROMPT_PER_EVENT = 120;
/** The prompt tokens of a call made after `events` events of the log. */
export const promptTokens = (events: number) => PROMPT_BASE + PROMPT_PER_EVENT * events;
/**
 * Whether an event adds to the prompts after it: not the `last_user_message_id` update (state
 * bookkeeping the agent server publishes after each user message since v1.11.5, left out so the
 * fake's fixed numbers are the same with it and without it, for every `agentServerVersion`).
 */
const inPrompt = (event: AgentEvent) => !(event.kind === 'ConversationStateUpdateEvent' && event.key === 'last_user_message_id');
/** The context window the fake's models have. */
const CONTEXT_WINDOW = 200_000;
/** Dollars per million tokens: prompt, prompt read from the cache, completion. */
const PRICE = { prompt: 3, cacheRead: 0.3, completion: 15 } as const;
/** The model families LiteLLM's price table holds (its `model_cost`), by the model's name after its provider. */
const PRICED_FAMILY =
  /^(claude-|gpt-|o[1-9](-|$)|gemini-|devstral|mistral|codestral|magistral|deepseek|grok-|qwen|llama|kimi|glm-|minimax)/i;
/**
 * Whether a call of `model` costs anything: a model LiteLLM has no price for costs nothing, and no
 * cost is recorded (openhands-sdk 1.58.2 `llm/utils/telemetry.py`, `on_response`: `_compute_cost`
 * fails, and only a positive cost is added).
 */
export const isPriced = (model: string) => PRICED_FAMILY.test(model.slice(model.lastIndexOf('/') + 1));

/** What one usage id has used, call by call (`Metrics`). */
export interface Metrics extends MetricsSnapshot {
  costs: { model: string; cost: number; timestamp: number }[];
  response_latencies: { model: string; latency: number; response_id: string }[];
  token_usages: TokenUsage[];
}

/** A conversation's statistics (`ConversationStats`), or their snapshot form. */
export interface ConversationStats<M extends object = Metrics> {
  usage_to_metrics: Record<string, M>;
}

/** One LLM call an event stands for. */
interface LlmCall {
  usageId: string;
  model: string;
  prompt: number;
  completion: number;
  responseId: string;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
/** A text's tokens, roughly (four characters each, at least one). */
export const tokenCount = (value: string) => Math.max(1, Math.ceil(value.length / 4));
const textOf = (content: unknown): string =>
  Array.isArray(content) ? content.map((part) => String((part as { text?: unknown })?.text ?? '')).join('') : '';
const secondsOf = (timestamp: unknown) => {
  const ms = Date.parse(/Z|[+-]\d\d:\d\d$/.test(String(timestamp)) ? String(timestamp) : `${String(timestamp)}Z`);
  return Number.isNaN(ms) ? 0 : ms / 1000;
};
const count = (value: unknown): number | undefined => (Number.isInteger(value) && (value as number) >= 0 ? (value as number) : undefined);

/** The usage a completion log records (`log_data`'s `usage`), when it is readable. */
function loggedUsage(logData: unknown): { prompt: number; completion: number } | undefined {
  try {
    const usage = (JSON.parse(String(logData)) as { usage?: Record<string, unknown> }).usage;
    const prompt = count(usage?.prompt_tokens);
    const completion = count(usage?.completion_tokens);
    return prompt === undefined || completion === undefined ? undefined : { prompt, completion };
  } catch {
    return undefined;
  }
}

/** The LLM call `event` stands for (the `index`th event of its log that is in prompts), or none. */
function callOf(event: AgentEvent, index: number, model: string, lastResponse: string | undefined, usageId: string): LlmCall | null {
  const prompt = promptTokens(index);
  const agent = (completion: string, responseId: string): LlmCall => ({
    usageId,
    model,
    prompt,
    completion: tokenCount(completion),
    responseId,
  });
  switch (event.kind) {
    case 'ActionEvent': {
      const responseId = String(event.llm_response_id ?? `resp_${event.id}`);
      if (event.source !== 'agent' || responseId === lastResponse) return null;
      return agent(
        `${textOf(event.thought)}${String((event.tool_call as { arguments?: unknown } | undefined)?.arguments ?? '')}`,
        responseId,
      );
    }
    case 'MessageEvent':
      return event.source === 'agent' ? agent(textOf((event.llm_message as { content?: unknown })?.content), `resp_${event.id}`) : null;
    case 'Condensation':
      return {
        ...agent(String(event.summary ?? ''), String(event.llm_response_id ?? `resp_${event.id}`)),
        usageId: CONDENSER_USAGE_ID,
      };
    case 'TokenEvent':
      return {
        ...agent('', `resp_${event.id}`),
        prompt: (event.prompt_token_ids as unknown[] | undefined)?.length ?? 0,
        completion: (event.response_token_ids as unknown[] | undefined)?.length ?? 0,
      };
    case 'LLMCompletionLogEvent': {
      const usage = loggedUsage(event.log_data);
      if (!usage) return null;
      return { usageId: String(event.usage_id), model: String(event.model_name), ...usage, responseId: `resp_${event.id}` };
    }
    case 'ObservationEvent': {
      const observation = event.observation as Record<string, unknown> | undefined;
      if (observation?.kind !== 'VisionInspectObservation') return null;
      return {
        usageId: `vision-profile:${String(observation.profile_name ?? 'vision')}`,
        model: String(observation.model ?? model),
        prompt: 1_000 + tokenCount(String(observation.question ?? '')),
        completion: tokenCount(String(observation.answer ?? '')),
        responseId: `resp_${event.id}`,
      };
    }
    default:
      return null;
  }
}

/** An empty `Metrics` of `model` (`Metrics.initialize_accumulated_token_usage`). */
function emptyMetrics(model: string): Metrics {
  return {
    model_name: model,
    accumulated_cost: 0,
    max_budget_per_task: null,
    accumulated_token_usage: {
      model,
      prompt_tokens: 0,
      completion_tokens: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      context_window: 0,
      per_turn_token: 0,
      response_id: '',
    },
    costs: [],
    response_latencies: [],
    token_usages: [],
  };
}

/** Adds one call, answered at `at` (epoch seconds), to its usage's metrics (`add_cost`, `add_response_latency`, `add_token_usage`). */
function addCall(metrics: Metrics, call: LlmCall, at: number): void {
  const previous = metrics.token_usages.at(-1)?.prompt_tokens ?? 0;
  const cacheRead = Math.min(previous, call.prompt);
  const usage: TokenUsage = {
    model: metrics.model_name,
    prompt_tokens: call.prompt,
    completion_tokens: call.completion,
    cache_read_tokens: cacheRead,
    cache_write_tokens: call.prompt - cacheRead,
    reasoning_tokens: 0,
    context_window: CONTEXT_WINDOW,
    per_turn_token: call.prompt + call.completion,
    response_id: call.responseId,
  };
  const cost = round(
    ((call.prompt - cacheRead) * PRICE.prompt + cacheRead * PRICE.cacheRead + call.completion * PRICE.completion) / 1e6,
    9,
  );
  if (isPriced(metrics.model_name)) {
    metrics.accumulated_cost = round(metrics.accumulated_cost + cost, 9);
    metrics.costs.push({ model: metrics.model_name, cost, timestamp: at });
  }
  metrics.response_latencies.push({
    model: metrics.model_name,
    latency: round(0.35 + call.completion * 0.015, 3),
    response_id: call.responseId,
  });
  metrics.token_usages.push(usage);
  const total = metrics.accumulated_token_usage;
  metrics.accumulated_token_usage = {
    ...total,
    prompt_tokens: total.prompt_tokens + usage.prompt_tokens,
    completion_tokens: total.completion_tokens + usage.completion_tokens,
    cache_read_tokens: total.cache_read_tokens + usage.cache_read_tokens,
    cache_write_tokens: total.cache_write_tokens + usage.cache_write_tokens,
    reasoning_tokens: total.reasoning_tokens + usage.reasoning_tokens,
    context_window: Math.max(total.context_window, usage.context_window),
    per_turn_token: usage.per_turn_token,
  };
}

/** Whether any event of a log stands for an LLM call (`statsOfEvents` of a log without one is `statsOfEvents([], model)`). */
/** Whether a log holds a user's message (after which the agent is ready and its LLM registered). */
export function hasUserMessage(events: readonly AgentEvent[]): boolean {
  return events.some((event) => event.kind === 'MessageEvent' && event.source === 'user');
}

/** Whether a log holds an LLM call. */
export function hasLlmCall(events: readonly AgentEvent[], model: string): boolean {
  let lastResponse: string | undefined;
  for (let index = 0; index < events.length; index++) {
    const event = events[index]!;
    if (callOf(event, index, model, lastResponse, AGENT_USAGE_ID)) return true;
    if (event.kind === 'ActionEvent') lastResponse = String(event.llm_response_id ?? '');
  }
  return false;
}

/** What changes a conversation's statistics besides its log: its LLM switches and its calls that publish no event. */
export interface OutsideLog {
  readonly switches: AgentHostState['llm_switches'];
  readonly calls: AgentHostState['llm_calls'];
  /** Where `events` starts in the log (`at` counts from the log's start). */
  readonly offset: number;
}

/**
 * The statistics of a conversation whose log is `events`, its agent on `model`: one `Metrics` per
 * usage id, in the order each was registered. An LLM is registered with empty metrics when the agent
 * is made ready (the first user message: openhands-sdk 1.58.2 `local_conversation.py`,
 * `_ensure_agent_ready`; `ConversationStats.register_llm`), when the agent switches to it
 * (`switch_llm`, `switch_profile`: `profile:NAME`) and at its first call; a usage keeps the model it
 * was registered with (`switch_llm` restores the old metrics on the new LLM of the same usage id).
 */
export function statsOfEvents(
  events: readonly AgentEvent[],
  model: string,
  usageId: string = AGENT_USAGE_ID,
  outside: OutsideLog = { switches: [], calls: [], offset: 0 },
): ConversationStats {
  const { switches, calls, offset } = outside;
  let agentUsage = switches[0]?.from_usage_id ?? usageId;
  let agentModel = switches[0]?.from_model ?? model;
  const usage: Record<string, Metrics> = {};
  const register = (id: string, of: string) => (usage[id] ??= emptyMetrics(of));
  let ready = false;
  let nextSwitch = 0;
  let nextCall = 0;
  /** Applies the switches and outside calls made before the log's `at`th event (a switch before the agent is ready registers nothing yet). */
  const catchUp = (at: number) => {
    for (; nextSwitch < switches.length && switches[nextSwitch]!.at <= at; nextSwitch++) {
      ({ usage_id: agentUsage, model: agentModel } = switches[nextSwitch]!);
      if (ready) register(agentUsage, agentModel);
    }
    for (; nextCall < calls.length && calls[nextCall]!.at <= at; nextCall++) {
      const c = calls[nextCall]!;
      if (c.at < offset) continue;
      const { usage_id: id, response_id: responseId, prompt, completion } = c;
      addCall(register(id, c.model), { usageId: id, model: c.model, prompt, completion, responseId }, c.timestamp);
    }
  };
  let lastResponse: string | undefined;
  let index = 0;
  events.forEach((event, i) => {
    catchUp(offset + i);
    if (!ready && event.kind === 'MessageEvent' && event.source === 'user') {
      ready = true;
      register(agentUsage, agentModel);
    }
    const call = callOf(event, index, agentModel, lastResponse, agentUsage);
    if (inPrompt(event)) index++;
    if (event.kind === 'ActionEvent') lastResponse = String(event.llm_response_id ?? '');
    else if (call) lastResponse = undefined;
    if (!call) return;
    addCall(register(call.usageId, call.model), call, secondsOf(event.timestamp));
  });
  catchUp(Number.MAX_SAFE_INTEGER);
  return { usage_to_metrics: usage };
}

/** One usage's snapshot (`Metrics.get_snapshot`): the totals, without the call lists. */
export function snapshotOf(metrics: Metrics): MetricsSnapshot {
  const { model_name, accumulated_cost, max_budget_per_task, accumulated_token_usage } = metrics;
  return { model_name, accumulated_cost, max_budget_per_task, accumulated_token_usage: { ...accumulated_token_usage } };
}

/**
 * The `value` of a `ConversationStateUpdateEvent` of key `stats`: snapshots only
 * (`event/conversation_state.py`, `validate_value`: `model_dump(context={"use_snapshot": True})`).
 */
export function statsSnapshot(stats: ConversationStats): ConversationStats<MetricsSnapshot> {
  return { usage_to_metrics: Object.fromEntries(Object.entries(stats.usage_to_metrics).map(([id, m]) => [id, snapshotOf(m)])) };
}

/**
 * The stats as a `full_state` carries them: whole `Metrics`, `None` fields left out
 * (`ConversationStateUpdateEvent.from_conversation_state`: `model_dump(mode="json", exclude_none=True)`).
 */
export function statsForFullState(stats: ConversationStats): ConversationStats<Omit<Metrics, 'max_budget_per_task'>> {
  return {
    usage_to_metrics: Object.fromEntries(
      Object.entries(stats.usage_to_metrics).map(([id, { max_budget_per_task, ...rest }]) => [
        id,
        max_budget_per_task === null ? rest : { ...rest, max_budget_per_task },
      ]),
    ),
  };
}

/** Every usage's totals together (`ConversationStats.get_combined_metrics`), or null before the first call. */
export function combinedSnapshot(stats: ConversationStats): MetricsSnapshot | null {
  const all = Object.values(stats.usage_to_metrics);
  if (all.every((metrics) => metrics.token_usages.length === 0)) return null;
  const combined = emptyMetrics('default');
  for (const metrics of all) {
    const a = combined.accumulated_token_usage;
    const b = metrics.accumulated_token_usage;
    combined.accumulated_cost = round(combined.accumulated_cost + metrics.accumulated_cost, 9);
    combined.accumulated_token_usage = {
      ...a,
      prompt_tokens: a.prompt_tokens + b.prompt_tokens,
      completion_tokens: a.completion_tokens + b.completion_tokens,
      cache_read_tokens: a.cache_read_tokens + b.cache_read_tokens,
      cache_write_tokens: a.cache_write_tokens + b.cache_write_tokens,
      reasoning_tokens: a.reasoning_tokens + b.reasoning_tokens,
      context_window: Math.max(a.context_window, b.context_window),
      per_turn_token: b.per_turn_token,
    };
  }
  return snapshotOf(combined);
}
