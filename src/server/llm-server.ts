/**
 * The scripted LLM on its own listener (`fakehands llm`, `fakehands serve --llm-port`): node:http
 * in front of a `ScriptedLlm`. A body over the limit or too slow is refused in OpenAI's format;
 * nothing a client sends ends the process (an unexpected error is a 500 `server_error`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isStreamed, type Answer } from '../http/responses.js';
import { ScriptedLlm, type ScriptedLlmOptions } from '../surfaces/llm/index.js';
import { openAiError } from '../surfaces/llm/errors.js';
import { BodyReadError, readBody } from './request-body.js';

/**
 * Largest request body taken (over it: 413): an agent's whole history with its tools, a context of a
 * million tokens; reading and checking one this size costs ~30 ms of the loop (JSON.parse of 7 MiB
 * took 28 ms here), so no body keeps it busy past 50 ms.
 */
export const MAX_LLM_BODY_BYTES = 4 * 1024 * 1024;
/** How long a request body may take to arrive. */
const LLM_BODY_TIMEOUT_MS = 30_000;

/** Options of `startLlmServer`. */
export interface LlmServerOptions extends ScriptedLlmOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: a free one). */
  port?: number;
  /** A scripted LLM to serve instead of a new one made from these options. */
  llm?: ScriptedLlm;
}

/** A running scripted LLM. */
export interface LlmServer {
  /** The LLM it serves (its requests, its scripts). */
  llm: ScriptedLlm;
  /** Where it listens (`http://127.0.0.1:PORT`); an agent's `base_url` is this plus `/v1`. */
  url: string;
  /** Stops it. */
  close(): Promise<void>;
}

/** Writes `answer` to `response`, streaming a streamed body piece by piece. */
async function send(response: ServerResponse, answer: Answer): Promise<void> {
  response.writeHead(answer.status, answer.headers);
  const body = answer.body;
  if (body === null) return void response.end();
  if (!isStreamed(body)) return void response.end(body);
  for await (const piece of body) {
    if (response.destroyed) return;
    response.write(piece);
  }
  response.end();
}

/** Answers one request. */
async function answerRequest(llm: ScriptedLlm, message: IncomingMessage, response: ServerResponse): Promise<void> {
  let text: string;
  try {
    text =
      message.method === 'GET' || message.method === 'HEAD'
        ? ''
        : (await readBody(message, { maxBytes: MAX_LLM_BODY_BYTES, timeoutMs: LLM_BODY_TIMEOUT_MS, concurrency: 1 })).toString('utf8');
  } catch (error) {
    const status = error instanceof BodyReadError ? error.status : 400;
    if (status === 0) return void response.destroy();
    return send(
      response,
      openAiError(
        status,
        status === 413 ? `The request body is over ${MAX_LLM_BODY_BYTES} bytes.` : 'The request body did not arrive in time.',
        'invalid_request_error',
      ),
    );
  }
  const headers = Object.entries(message.headers).map(
    ([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')] as [string, string],
  );
  const answer = await llm.handle({
    method: message.method ?? 'GET',
    url: message.url ?? '/',
    headers: Object.assign(headers, { get: (name: string) => message.headers[name.toLowerCase()]?.toString() ?? null }),
    text: async () => text,
  });
  await send(response, answer);
}

/**
 * Starts a scripted LLM on loopback.
 * @example
 * const { url, llm, close } = await startLlmServer({ scripts: [{ steps: [{ terminal: { command: 'echo hi' } }, { finish: 'Done.' }] }] })
 * // an agent's LLM: { model: 'openai/fakehands', base_url: `${url}/v1`, api_key: 'any' }
 */
export async function startLlmServer(options: LlmServerOptions = {}): Promise<LlmServer> {
  const llm = options.llm ?? new ScriptedLlm(options);
  const server = createServer((message, response) => {
    answerRequest(llm, message, response).catch(() => {
      if (!response.headersSent) void send(response, openAiError(500, 'The scripted LLM failed to answer.', 'server_error'));
      else response.destroy();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    llm,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
