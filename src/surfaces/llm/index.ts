/**
 * The scripted LLM: an OpenAI-compatible model server (Chat Completions, JSON and streamed, with
 * `tools`/`tool_calls` and `usage`; the model list; the Responses API) that also speaks Anthropic's
 * Messages API, answering from fakehands' agent scripts. Point a REAL agent server's LLM at it
 * (`base_url` its `/v1`) and the real agent loop runs offline and deterministically. Every request is
 * kept (`requests()`), every bad one answered in its provider's error format, and its control routes
 * (`/_fakehands/llm/...`) read the log and swap the scripts. It is separate from the agent host's own
 * OpenAI gateway (`surfaces/agent-server/openai-routes.ts`), which runs the fake's agent instead.
 *
 * Hand-written rather than on the pipeline of the other surfaces: a provider's errors are not
 * FastAPI's (400 `{"error": ...}`, not 422 `{"detail": ...}`), and none of the instance's state,
 * faults or journal apply to a model.
 */
import * as z from 'zod/mini';
import { json, raw, type Answer } from '../../http/responses.js';
import { AgentScript } from '../../schemas/agent-script.js';
import { AnthropicMessagesRequest, ChatCompletionRequest, ResponsesRequest } from '../../schemas/llm.js';
import { LLM_STEP_KINDS, nextTurn, type HistoryView, type LlmTurn } from '../../domain/llm/turns.js';
import { keptHeaders, RequestLog, type LlmRequestRecord } from '../../domain/llm/request-log.js';
import { stepKind } from '../../schemas/agent-script.js';
import { anthropicError, failureAnswer, invalidRequest, openAiError, type LlmApi } from './errors.js';
import { chatChunks, chatCompletion, chatView, type Stamp } from './openai-chat.js';
import { responsesAnswer, responsesEvents, responsesView } from './openai-responses.js';
import { messagesAnswer, messagesEvents, messagesView } from './anthropic-messages.js';

export type { LlmRequestRecord } from '../../domain/llm/request-log.js';

/** Where the LLM's control routes live. */
export const LLM_CONTROL_PREFIX = '/_fakehands/llm';

/** The scripted LLM's options. */
export interface ScriptedLlmOptions {
  /** The agent scripts it answers from (the fake's `agentScripts` vocabulary); a step kind no model turn stands for is refused. */
  scripts?: readonly z.input<typeof AgentScript>[];
  /** How long it thinks before each answer, in milliseconds (default 0). */
  latencyMs?: number;
  /** How long between two chunks of a streamed answer, in milliseconds (default 0). */
  chunkMs?: number;
  /** The models `GET /v1/models` lists (default `['fakehands-scripted']`; any model name is answered). */
  models?: readonly string[];
  /** The key a request must carry (`Authorization: Bearer` or `x-api-key`); absent: any key, or none, is taken. */
  apiKey?: string;
  /** The clock its answers are stamped with, in epoch milliseconds (default `Date.now`). */
  now?: () => number;
}

/** What the LLM reads of a request: a Fetch `Request` is one. */
export interface LlmRequest {
  readonly method: string;
  /** The absolute URL, or the path with its query. */
  readonly url: string;
  readonly headers: Iterable<[string, string]> & { get(name: string): string | null };
  text(): Promise<string>;
}

/** The control API's script list. */
const ScriptList = z.array(AgentScript).check(z.maxLength(200));

/** Reads and checks scripts: a clear error naming a step a model turn cannot stand for. */
export function parseLlmScripts(scripts: unknown): AgentScript[] {
  const parsed = ScriptList.safeParse(scripts);
  if (!parsed.success) throw new TypeError(`Invalid LLM scripts: ${z.prettifyError(parsed.error)}`);
  parsed.data.forEach((script, i) =>
    script.steps.forEach((step, j) => {
      const kind = stepKind(step);
      if (!(LLM_STEP_KINDS as readonly string[]).includes(kind)) {
        throw new TypeError(
          `Invalid LLM scripts: scripts[${i}].steps[${j}] is a '${kind}' step, which no model answer stands for; use one of ${LLM_STEP_KINDS.join(', ')}.`,
        );
      }
    }),
  );
  return parsed.data;
}

/**
 * A scripted LLM answering from those of an agent's scripts made of model turns only (a fake's
 * `agentScripts` may hold steps only its own agent plays: those scripts are left to it).
 */
export function llmOfAgentScripts(scripts: readonly AgentScript[], now?: () => number): ScriptedLlm {
  const modelTurns = scripts.filter((script) =>
    script.steps.every((step) => (LLM_STEP_KINDS as readonly string[]).includes(stepKind(step))),
  );
  return new ScriptedLlm(now === undefined ? { scripts: modelTurns } : { scripts: modelTurns, now });
}

/** A wait of `ms` that keeps no process alive. */
const sleep = (ms: number) =>
  ms <= 0
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms) as { unref?: () => void };
        timer.unref?.();
      });

/** The path with its query and any `/v1` prefixes taken off (LiteLLM adds one to a base URL that has it already). */
function apiPath(url: string): { path: string; full: string } {
  const full = url.startsWith('/') ? url.split('?')[0]! : new URL(url).pathname;
  let path = full;
  while (path.startsWith('/v1/')) path = path.slice(3);
  return { path: path === '/v1' ? '/' : path, full };
}

/** The API a path is of. */
const API_OF: Record<string, LlmApi> = { '/chat/completions': 'chat', '/responses': 'responses', '/messages': 'messages' };

/** A scripted model server: answers requests, keeps them, and swaps its scripts. */
export class ScriptedLlm {
  #scripts: AgentScript[];
  readonly #log = new RequestLog();
  readonly #options: Required<Omit<ScriptedLlmOptions, 'scripts' | 'apiKey'>> & { apiKey: string | undefined };

  /** A scripted LLM answering from `options.scripts`; throws on a script it cannot answer from. */
  constructor(options: ScriptedLlmOptions = {}) {
    this.#scripts = parseLlmScripts(options.scripts ?? []);
    this.#options = {
      latencyMs: options.latencyMs ?? 0,
      chunkMs: options.chunkMs ?? 0,
      models: options.models ?? ['fakehands-scripted'],
      apiKey: options.apiKey,
      now: options.now ?? Date.now,
    };
  }

  /** The requests received so far, oldest first (bounded; credentials left out). */
  requests(): LlmRequestRecord[] {
    return this.#log.list();
  }

  /** Replaces the scripts (checked as the constructor checks them). */
  setScripts(scripts: readonly z.input<typeof AgentScript>[]): void {
    this.#scripts = parseLlmScripts(scripts);
  }

  /** Forgets the requests received. */
  clearRequests(): void {
    this.#log.clear();
  }

  /** The answer to one request: a model's, a control route's, or an error in the provider's format. */
  async handle(request: LlmRequest): Promise<Answer> {
    const { path, full } = apiPath(request.url);
    if (full.startsWith(`${LLM_CONTROL_PREFIX}/`) || full === LLM_CONTROL_PREFIX) return this.#control(request, full);
    const api = API_OF[path];
    if (path === '/models' && request.method === 'GET') return this.#models(request, full);
    // LiteLLM asks an OpenAI-compatible base URL for a LiteLLM proxy's model info first: none is known here.
    if (path === '/model/info' && request.method === 'GET') return json(200, { data: [] });
    if (api === undefined || request.method !== 'POST') {
      const known = api !== undefined || path === '/models';
      return openAiError(known ? 405 : 404, `Invalid URL (${request.method} ${full})`, 'invalid_request_error');
    }
    if (api === 'messages' && this.#options.apiKey !== undefined && request.headers.get('x-api-key') === this.#options.apiKey) {
      return this.#complete(api, request, full);
    }
    const denied = this.#denied(api, request);
    return denied ?? this.#complete(api, request, full);
  }

  /** The 401 of a request without the configured key, or `null`. */
  #denied(api: LlmApi, request: LlmRequest): Answer | null {
    const expected = this.#options.apiKey;
    if (expected === undefined) return null;
    const bearer = request.headers.get('authorization')?.replace(/^Bearer\s+/i, '');
    if (bearer === expected || request.headers.get('x-api-key') === expected) return null;
    if (api === 'messages') return anthropicError(401, 'authentication_error', 'invalid x-api-key');
    return openAiError(401, 'Incorrect API key provided.', 'invalid_request_error', null, 'invalid_api_key');
  }

  /** `GET /v1/models`. */
  #models(request: LlmRequest, full: string): Answer {
    const created = Math.floor(this.#options.now() / 1000);
    const data = this.#options.models.map((id) => ({ id, object: 'model', created, owned_by: 'fakehands' }));
    this.#log.add(this.#record(request, full, 'models', null, false, null, 200), 0);
    return json(200, { object: 'list', data });
  }

  /** A completion of any API. */
  async #complete(api: LlmApi, request: LlmRequest, full: string): Promise<Answer> {
    const text = await request.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      const answer = invalidRequest(api, 'The body of the request is not valid JSON.', null);
      this.#log.add(this.#record(request, full, api, null, false, null, answer.status), 0);
      return answer;
    }
    const schema = api === 'chat' ? ChatCompletionRequest : api === 'responses' ? ResponsesRequest : AnthropicMessagesRequest;
    const parsed = schema.safeParse(body);
    const model = typeof (body as { model?: unknown } | null)?.model === 'string' ? (body as { model: string }).model : null;
    const stream = (body as { stream?: unknown } | null)?.stream === true;
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const param = issue.path.length === 0 ? null : issue.path.map(String).join('.');
      const answer =
        issue.code === 'invalid_type' && issue.input === undefined && param !== null
          ? invalidRequest(api, `Missing required parameter: '${param}'.`, param)
          : invalidRequest(api, `Invalid value for '${param ?? 'body'}': ${issue.message}.`, param);
      this.#log.add(this.#record(request, full, api, model, stream, body, answer.status), text.length);
      return answer;
    }
    const seq = this.#log.next();
    const stamp: Stamp = { id: `fakehands-${seq}`, created: Math.floor(this.#options.now() / 1000), callId: `call_fakehands_${seq}` };
    const view: HistoryView =
      api === 'chat'
        ? chatView(parsed.data as ChatCompletionRequest)
        : api === 'responses'
          ? responsesView(parsed.data as ResponsesRequest)
          : messagesView(parsed.data as AnthropicMessagesRequest);
    const turn = nextTurn(this.#scripts, view);
    const answer = this.#answer(api, parsed.data, turn, stamp, stream);
    this.#log.add(this.#record(request, full, api, model, stream, body, answer.status, seq), text.length);
    await sleep(this.#options.latencyMs);
    return answer;
  }

  /** The answer of `turn` in `api`'s format. */
  #answer(api: LlmApi, data: unknown, turn: LlmTurn, stamp: Stamp, stream: boolean): Answer {
    if (turn.kind === 'failure') return failureAnswer(api, turn.failure, turn.message);
    if (!stream) {
      if (api === 'chat') return json(200, chatCompletion(data as ChatCompletionRequest, turn, stamp));
      if (api === 'responses') return json(200, responsesAnswer(data as ResponsesRequest, turn, stamp));
      return json(200, messagesAnswer(data as AnthropicMessagesRequest, turn, stamp));
    }
    const events =
      api === 'chat'
        ? chatChunks(data as ChatCompletionRequest, turn, stamp)
        : api === 'responses'
          ? responsesEvents(data as ResponsesRequest, turn, stamp)
          : messagesEvents(data as AnthropicMessagesRequest, turn, stamp);
    const chunkMs = this.#options.chunkMs;
    async function* paced() {
      for (const event of events) {
        await sleep(chunkMs);
        yield event;
      }
    }
    return raw(200, paced(), 'text/event-stream', { 'cache-control': 'no-cache' });
  }

  /** A request's record for the log. */
  #record(
    request: LlmRequest,
    path: string,
    api: LlmRequestRecord['api'],
    model: string | null,
    stream: boolean,
    body: unknown,
    status: number,
    seq = this.#log.next(),
  ): LlmRequestRecord {
    return {
      seq,
      at: new Date(this.#options.now()).toISOString(),
      api,
      path,
      model,
      stream,
      headers: keptHeaders(request.headers),
      body,
      status,
    };
  }

  /** The control routes: `GET|DELETE /_fakehands/llm/requests`, `PUT /_fakehands/llm/scripts`. */
  async #control(request: LlmRequest, full: string): Promise<Answer> {
    const route = `${request.method} ${full.slice(LLM_CONTROL_PREFIX.length)}`;
    if (route === 'GET /requests') return json(200, { requests: this.requests() });
    if (route === 'DELETE /requests') {
      this.clearRequests();
      return json(200, { success: true });
    }
    if (route === 'PUT /scripts') {
      try {
        this.setScripts(JSON.parse(await request.text()));
      } catch (error) {
        return openAiError(400, (error as Error).message.replace(/\n/g, ' '), 'invalid_request_error', 'scripts');
      }
      return json(200, { success: true, scripts: this.#scripts.length });
    }
    return openAiError(404, `Invalid URL (${request.method} ${full})`, 'invalid_request_error');
  }
}
