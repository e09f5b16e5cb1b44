/**
 * The scripted LLM over HTTP (`startLlmServer`, what `fakehands llm` runs): the shapes LiteLLM's
 * OpenAI and Anthropic clients parse (openhands-sdk `llm/llm.py` sends Chat Completions for
 * `openai/...` models), one script step a model turn, provider error bodies, the request log.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import { startLlmServer, type LlmServer } from '../../src/server/llm-server.js';
import { createFake, llmHandlers, ScriptedLlm } from '../../src/index.js';

const SCRIPTS = [
  { match: 'list files', steps: [{ terminal: { command: 'ls -1' } }, { think: 'Two files.' }, { finish: 'There are two files.' }] },
  { match: 'rate limit', steps: [{ fail: { code: 'RateLimitError', detail: 'Rate limit reached for requests' } }] },
  { match: 'too long', steps: [{ fail: { code: 'ContextWindowExceededError', detail: '9000 tokens > 8192' } }] },
  { match: 'plan', steps: [{ task_tracker: { tasks: [{ title: 'Read the code' }] } }, { message: 'Planned.' }] },
];

/** The tools an agent lists (Chat Completions), the Responses API's and Anthropic's. */
const TOOL_NAMES = ['terminal', 'think', 'finish', 'task_tracker', 'file_editor'];
const TOOLS = TOOL_NAMES.map((name) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } }));
const RESPONSES_TOOLS = TOOL_NAMES.map((name) => ({ type: 'function', name, parameters: { type: 'object', properties: {} } }));
const ANTHROPIC_TOOLS = TOOL_NAMES.map((name) => ({ name, input_schema: { type: 'object', properties: {} } }));

const TERMINAL_TOOL = {
  type: 'function',
  function: {
    name: 'terminal',
    parameters: { type: 'object', properties: { command: { type: 'string' }, security_risk: { type: 'string' } } },
  },
};

let server: LlmServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(options: ConstructorParameters<typeof ScriptedLlm>[0] = { scripts: SCRIPTS }) {
  server = await startLlmServer({ ...options, now: () => Date.UTC(2026, 11, 2) });
  return server;
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test-secret', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), text, json: () => JSON.parse(text) };
}

const user = (content: string) => ({ role: 'user', content });
const called = (name: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'c1', type: 'function', function: { name, arguments: '{}' } }],
});
const result = (content: string) => ({ role: 'tool', tool_call_id: 'c1', content });

describe('POST /v1/chat/completions', () => {
  it("answers a script's first step as a tool call, with security_risk where the tool's schema has it", async () => {
    await start();
    const answer = await post('/v1/chat/completions', {
      model: 'fakehands',
      messages: [{ role: 'system', content: 'You are OpenHands.' }, user('Please list files')],
      tools: [TERMINAL_TOOL],
    });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({
      id: 'fakehands-1',
      object: 'chat.completion',
      created: Date.UTC(2026, 11, 2) / 1000,
      model: 'fakehands',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_fakehands_1',
                type: 'function',
                function: { name: 'terminal', arguments: '{"command":"ls -1","security_risk":"LOW"}' },
              },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: expect.objectContaining({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) }),
      system_fingerprint: 'fakehands',
    });
  });

  it('answers the step the history has reached: one assistant turn after the user message is the second step', async () => {
    await start();
    const second = await post('/v1/chat/completions', {
      model: 'm',
      tools: TOOLS,
      messages: [user('list files'), called('terminal'), result('a\nb')],
    });
    expect(second.json().choices[0].message.tool_calls[0].function).toEqual({ name: 'think', arguments: '{"thought":"Two files."}' });
    const third = await post('/v1/chat/completions', {
      model: 'm',
      tools: TOOLS,
      messages: [user('list files'), called('terminal'), result('a\nb'), called('think'), result('ok')],
    });
    expect(third.json().choices[0].message.tool_calls[0].function).toEqual({
      name: 'finish',
      arguments: '{"message":"There are two files."}',
    });
  });

  it('answers a message step as plain content with finish_reason stop, and past the last step a plain answer', async () => {
    await start();
    const planned = await post('/v1/chat/completions', { model: 'm', messages: [user('plan it'), called('task_tracker'), result('ok')] });
    expect(planned.json().choices[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: 'Planned.' },
      logprobs: null,
      finish_reason: 'stop',
    });
    const after = await post('/v1/chat/completions', { model: 'm', messages: [user('unmatched words')] });
    expect(after.json().choices[0].message).toEqual({ role: 'assistant', content: "Hello from fakehands' scripted LLM." });
  });

  it('streams a tool call as chat.completion.chunk events, its arguments in pieces, a usage chunk when asked, then [DONE]', async () => {
    await start();
    const answer = await post('/v1/chat/completions', {
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
      tools: TOOLS,
      messages: [user('plan the work')],
    });
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('text/event-stream');
    const events = answer.text.trim().split('\n\n');
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice('data: '.length)));
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks[1].choices[0].delta.tool_calls[0]).toEqual({
      index: 0,
      id: 'call_fakehands_1',
      type: 'function',
      function: { name: 'task_tracker', arguments: '' },
    });
    const args = chunks
      .flatMap((c) => c.choices)
      .map((c: { delta: { tool_calls?: { function: { arguments: string } }[] } }) => c.delta.tool_calls?.[0]?.function.arguments ?? '')
      .join('');
    expect(JSON.parse(args)).toEqual({ command: 'plan', task_list: [{ title: 'Read the code', notes: '', status: 'todo' }] });
    expect(chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1).choices).toEqual([]);
    expect(chunks.at(-1).usage.total_tokens).toBe(chunks.at(-1).usage.prompt_tokens + chunks.at(-1).usage.completion_tokens);
  });

  it('answers in text a request that lists no tools (a title to generate): a model cannot call a tool it was not given', async () => {
    await start();
    const title = await post('/v1/chat/completions', {
      model: 'm',
      messages: [{ role: 'system', content: 'Generate a title.' }, user('Please list files')],
    });
    expect(title.json().choices[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: "Hello from fakehands' scripted LLM." },
      logprobs: null,
      finish_reason: 'stop',
    });
  });

  it('answers GET /v1/model/info, which LiteLLM asks an OpenAI-compatible base URL first, with no models', async () => {
    await start();
    const response = await fetch(`${server!.url}/v1/model/info`);
    expect([response.status, await response.json()]).toEqual([200, { data: [] }]);
  });

  it("answers a rate limit step with OpenAI's 429 and its error body", async () => {
    await start();
    const answer = await post('/v1/chat/completions', { model: 'm', messages: [user('hit the rate limit')] });
    expect(answer.status).toBe(429);
    expect(answer.json()).toEqual({
      error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
  });

  it('answers a context window step with 400 context_length_exceeded', async () => {
    await start();
    const answer = await post('/v1/chat/completions', { model: 'm', messages: [user('this is too long')] });
    expect(answer.status).toBe(400);
    expect(answer.json().error).toEqual({
      message: "This model's maximum context length is exceeded. 9000 tokens > 8192",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    });
  });

  it("refuses a body without messages, or not JSON, with 400 in OpenAI's format", async () => {
    await start();
    const missing = await post('/v1/chat/completions', { model: 'm' });
    expect(missing.status).toBe(400);
    expect(missing.json()).toEqual({
      error: { message: "Missing required parameter: 'messages'.", type: 'invalid_request_error', param: 'messages', code: null },
    });
    const broken = await post('/v1/chat/completions', '{"model": ');
    expect(broken.status).toBe(400);
    expect(broken.json()).toEqual({
      error: { message: 'The body of the request is not valid JSON.', type: 'invalid_request_error', param: null, code: null },
    });
    const badRole = await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'wizard', content: 'x' }] });
    expect(badRole.status).toBe(400);
    expect(badRole.json().error.param).toBe('messages.0.role');
  });

  it('answers 401 invalid_api_key without the configured key, and 200 with it', async () => {
    await start({ scripts: SCRIPTS, apiKey: 'sk-right' });
    const wrong = await post('/v1/chat/completions', { model: 'm', messages: [user('hi')] });
    expect(wrong.status).toBe(401);
    expect(wrong.json().error).toEqual({
      message: 'Incorrect API key provided.',
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_api_key',
    });
    const right = await post('/v1/chat/completions', { model: 'm', messages: [user('hi')] }, { authorization: 'Bearer sk-right' });
    expect(right.status).toBe(200);
  });
});

describe('GET /v1/models', () => {
  it('lists the configured models as OpenAI model objects', async () => {
    await start({ models: ['a', 'b'] });
    const response = await fetch(`${server!.url}/v1/models`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      object: 'list',
      data: [
        { id: 'a', object: 'model', created: Date.UTC(2026, 11, 2) / 1000, owned_by: 'fakehands' },
        { id: 'b', object: 'model', created: Date.UTC(2026, 11, 2) / 1000, owned_by: 'fakehands' },
      ],
    });
  });

  it("answers a path it does not serve with OpenAI's 404 body, and a wrong method with 405", async () => {
    await start();
    const missing = await post('/v1/embeddings', { model: 'm', input: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({
      error: { message: 'Invalid URL (POST /v1/embeddings)', type: 'invalid_request_error', param: null, code: null },
    });
    const wrong = await fetch(`${server!.url}/v1/chat/completions`);
    expect(wrong.status).toBe(405);
  });
});

describe('POST /v1/responses', () => {
  it('answers a function_call item, then counts function calls in input as turns', async () => {
    await start();
    const first = await post('/v1/responses', { model: 'gpt-5', tools: RESPONSES_TOOLS, input: [{ role: 'user', content: 'list files' }] });
    expect(first.status).toBe(200);
    expect(first.json().output).toEqual([
      {
        type: 'function_call',
        id: 'fc_fakehands-1',
        call_id: 'call_fakehands_1',
        name: 'terminal',
        arguments: '{"command":"ls -1"}',
        status: 'completed',
      },
    ]);
    const second = await post('/v1/responses', {
      model: 'gpt-5',
      tools: RESPONSES_TOOLS,
      input: [
        { role: 'user', content: 'list files' },
        { type: 'function_call', call_id: 'x', name: 'terminal', arguments: '{}' },
        { type: 'function_call_output', call_id: 'x', output: 'a' },
      ],
    });
    expect(second.json().output[0]).toMatchObject({ type: 'function_call', name: 'think' });
  });

  it('streams response.created first and response.completed last', async () => {
    await start();
    const answer = await post('/v1/responses', { model: 'gpt-5', tools: RESPONSES_TOOLS, input: 'plan', stream: true });
    const types = answer.text
      .trim()
      .split('\n\n')
      .map((e) => JSON.parse(e.split('\n')[1]!.slice('data: '.length)).type);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.function_call_arguments.delta');
  });
});

describe('POST /v1/messages', () => {
  it('answers a tool_use block with stop_reason tool_use, and an Anthropic error body for a rate limit', async () => {
    await start();
    const first = await post('/v1/messages', {
      model: 'claude-sonnet-4',
      max_tokens: 100,
      tools: ANTHROPIC_TOOLS,
      messages: [user('list files')],
    });
    expect(first.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_call_fakehands_1', name: 'terminal', input: { command: 'ls -1' } }],
      stop_reason: 'tool_use',
    });
    const limited = await post('/v1/messages', { model: 'claude-sonnet-4', max_tokens: 100, messages: [user('rate limit me')] });
    expect(limited.status).toBe(429);
    expect(limited.json()).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'Rate limit reached for requests' } });
  });

  it('counts tool_result messages as not the user speaking, and refuses a body without max_tokens', async () => {
    await start();
    const second = await post('/v1/messages', {
      model: 'claude',
      max_tokens: 10,
      tools: ANTHROPIC_TOOLS,
      messages: [
        user('list files'),
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'terminal', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'a' }] },
      ],
    });
    expect(second.json().content[0]).toMatchObject({ type: 'tool_use', name: 'think' });
    const bad = await post('/v1/messages', { model: 'claude', messages: [user('x')] });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: "max_tokens: Missing required parameter: 'max_tokens'." },
    });
  });
});

describe('GET /_fakehands/llm/requests', () => {
  it('keeps every request in order with its body, and never a credential header', async () => {
    await start();
    await post(
      '/v1/chat/completions',
      { model: 'm', messages: [user('list files')], tools: [TERMINAL_TOOL] },
      { 'x-api-key': 'sk-other-secret' },
    );
    await post('/v1/chat/completions', { model: 'm' });
    const log = (await (await fetch(`${server!.url}/_fakehands/llm/requests`)).json()) as {
      requests: { seq: number; status: number; body: { tools?: unknown[] }; headers: Record<string, string> }[];
    };
    expect(log.requests.map((r) => [r.seq, r.status])).toEqual([
      [1, 200],
      [2, 400],
    ]);
    expect(log.requests[0]!.body.tools).toEqual([TERMINAL_TOOL]);
    expect(JSON.stringify(log)).not.toContain('secret');
    expect(server!.llm.requests()).toHaveLength(2);
  });

  it('swaps the scripts with PUT /_fakehands/llm/scripts, and refuses a step no model turn stands for', async () => {
    await start();
    const put = (body: unknown) => fetch(`${server!.url}/_fakehands/llm/scripts`, { method: 'PUT', body: JSON.stringify(body) });
    expect((await put([{ steps: [{ message: 'Swapped.' }] }])).status).toBe(200);
    expect((await post('/v1/chat/completions', { model: 'm', messages: [user('anything')] })).json().choices[0].message.content).toBe(
      'Swapped.',
    );
    const refused = await put([{ steps: [{ browser_go_back: true }] }]);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      "scripts[0].steps[0] is a 'browser_go_back' step",
    );
  });
});

describe('createFake({ llmUrl })', () => {
  it("serves the scripted LLM in process through fake.handlers, from the fake's agent scripts", async () => {
    const fake = await createFake({
      fixture: 'empty',
      timings: 'instant',
      llmUrl: 'http://llm.test',
      agentScripts: [{ steps: [{ finish: 'In process.' }] }],
    });
    const msw = setupServer(...fake.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const response = await fetch('http://llm.test/v1/chat/completions', {
        method: 'POST',
        body: JSON.stringify({ model: 'm', tools: TOOLS, messages: [user('go')] }),
      });
      expect(response.status).toBe(200);
      expect(
        ((await response.json()) as { choices: { message: { tool_calls: { function: { name: string } }[] } }[] }).choices[0]!.message
          .tool_calls[0]!.function.name,
      ).toBe('finish');
      expect(fake.llm.requests()).toHaveLength(1);
    } finally {
      msw.close();
    }
  });

  it('llmHandlers serves any ScriptedLlm under an origin', async () => {
    const llm = new ScriptedLlm({ scripts: [{ steps: [{ message: 'Hi.' }] }] });
    const msw = setupServer(...llmHandlers(llm, 'http://other-llm.test'));
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const response = await fetch('http://other-llm.test/v1/chat/completions', {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [user('go')] }),
      });
      expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('Hi.');
    } finally {
      msw.close();
    }
  });
});

describe('the scripted LLM on its own listener', () => {
  it("refuses a body over MAX_LLM_BODY_BYTES with 413 in OpenAI's format, and answers the next request", async () => {
    await start();
    const { MAX_LLM_BODY_BYTES } = await import('../../src/server/llm-server.js');
    const big = await post('/v1/chat/completions', { model: 'm', messages: [user('x'.repeat(MAX_LLM_BODY_BYTES))] });
    expect(big.status).toBe(413);
    expect(big.json().error.type).toBe('invalid_request_error');
    expect((await post('/v1/chat/completions', { model: 'm', messages: [user('hi')] })).status).toBe(200);
  });
});
