/**
 * The AsyncAPI 3.1 document of the agent server's sockets (`GET /asyncapi.json` on the agent host):
 * generated from the zod schemas of the frames and events, valid for a real AsyncAPI parser
 * (`@asyncapi/parser`), and true to what the sockets send (every frame of a run validates against
 * its kind's message payload, with ajv).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { Ajv, type ErrorObject } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { compareAsyncApi } from '../../src/drift/asyncapi.js';
import { runDrift } from '../../src/drift/command.js';
import { EventKind } from '../../src/schemas/agent-server.js';
import { asyncApiDocument } from '../../src/surfaces/agent-server/asyncapi.js';
import { openSocket, startConversation } from '../agent-server/support.js';
import { startCli, type RunningCli } from '../support/cli.js';

type Doc = {
  asyncapi: string;
  channels: Record<
    string,
    {
      address: string;
      messages: Record<string, { payload: { $ref: string } }>;
      bindings: { ws: { query: { properties: Record<string, unknown> }; headers: { properties: Record<string, unknown> } } };
      'x-close-codes': Record<string, string>;
    }
  >;
  operations: Record<string, { action: string; messages: { $ref: string }[] }>;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    securitySchemes: Record<string, { type: string; in: string; name: string }>;
  };
};

/** The errors (severity 0) a real AsyncAPI parser finds in `document`. */
async function parserErrors(document: unknown): Promise<string[]> {
  const { diagnostics } = await new Parser().parse(JSON.stringify(document));
  return diagnostics.filter((d) => d.severity === 0).map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`);
}

/** A validator of a frame against the document's schema `name` (its `$ref`s resolved inside the document). */
function newValidator(document: Doc) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ ...document, $id: 'asyncapi' } as object);
  return (name: string, frame: unknown) => {
    const validate = ajv.getSchema(`asyncapi#/components/schemas/${name}`);
    if (!validate) return [`no schema ${name}`];
    return validate(frame) ? [] : (validate.errors ?? []).map((e: ErrorObject) => `${name}${e.instancePath} ${e.message ?? ''}`);
  };
}
/** Validators made so far, by the document's schemas: each schema compiled once per file, however many tests validate against it (issue 34). */
const validators = new Map<string, ReturnType<typeof newValidator>>();
/** `newValidator(document)`, shared by the documents with the same schemas. */
function validatorOf(document: Doc) {
  const key = JSON.stringify(document.components.schemas);
  const known = validators.get(key);
  if (known) return known;
  const made = newValidator(document);
  validators.set(key, made);
  return made;
}

/** Starts the fake (auth none, empty fixture, instant timings) with `extra` flags, killed after the file. */
const serve = (extra: string[] = []) =>
  startCli(['--quiet', '--auth', 'none', '--fixture', 'empty', '--timings', 'instant', ...extra], {}, { forSuite: true });
const started: Promise<RunningCli>[] = [];
afterAll(async () => {
  for (const cli of await Promise.all(started.map((s) => s.catch(() => undefined)))) {
    cli?.proc.kill('SIGKILL');
    await cli?.exited;
  }
});
/**
 * One fake of the newest dialect for the tests that read its document or run a conversation of
 * their own on it: a process start less per test (issue 34).
 */
let newestCli: Promise<RunningCli> | undefined;
const newestFake = () => {
  if (!newestCli) {
    newestCli = serve();
    started.push(newestCli);
  }
  return newestCli;
};

describe('GET /asyncapi.json (the agent host)', () => {
  it('serves an AsyncAPI 3.1 document a real parser accepts without errors, in the newest dialect', async () => {
    const cli = await newestFake();
    const response = await fetch(`${cli.agentUrl}/asyncapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Doc;
    expect(document.asyncapi).toBe('3.1.0');
    expect(await parserErrors(document)).toEqual([]);
    expect(Object.values(document.channels).map((c) => c.address)).toEqual(['/sockets/events/{conversation_id}', '/sockets/bash-events']);
    expect(document.components.schemas).toHaveProperty('TerminalAction');
    expect(document.components.schemas).not.toHaveProperty('ExecuteBashAction');
  });

  it("speaks the dialect of --agent-server-version 1.1.0: the terminal's kinds are ExecuteBashAction/ExecuteBashObservation, and it still validates", async () => {
    const ofNov2025 = serve(['--agent-server-version', '1.1.0']);
    started.push(ofNov2025);
    const cli = await ofNov2025;
    const document = (await (await fetch(`${cli.agentUrl}/asyncapi.json`)).json()) as Doc;
    expect(await parserErrors(document)).toEqual([]);
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['ExecuteBashAction', 'ExecuteBashObservation']));
    expect(Object.keys(document.components.schemas).filter((name) => name.startsWith('Terminal'))).toEqual([]);
    expect(JSON.stringify(document.components.schemas.ActionEvent)).toContain('"#/components/schemas/ExecuteBashAction"');
  });
});

describe('the document: generated from the schemas', () => {
  const document = asyncApiDocument({ version: '0.0.0', host: '127.0.0.1:1' }) as unknown as Doc;

  it('has a message for every event kind of EventKind, each sent by the server (a kind added to the schema is in it)', () => {
    expect(Object.keys(document.channels.events!.messages)).toEqual([...EventKind.options, 'MessageFrame', 'AuthFrame']);
    expect(document.operations.sendEvents!.action).toBe('send');
    expect(document.operations.sendEvents!.messages.map((m) => m.$ref.split('/').at(-1))).toEqual(EventKind.options);
    expect(document.operations.receiveEventFrames!).toMatchObject({
      action: 'receive',
      messages: [{ $ref: '#/channels/events/messages/MessageFrame' }, { $ref: '#/channels/events/messages/AuthFrame' }],
    });
  });

  it('states the three auth ways, the query parameters and the close codes of sockets.ts', () => {
    const events = document.channels.events!;
    expect(Object.keys(events.bindings.ws.query.properties)).toEqual(['session_api_key', 'resend_mode', 'after_timestamp', 'resend_all']);
    expect(Object.keys(events.bindings.ws.headers.properties)).toEqual(['X-Session-API-Key']);
    expect(document.components.schemas.AuthFrame).toMatchObject({
      properties: { type: { const: 'auth' }, session_api_key: { type: 'string' } },
      required: ['type', 'session_api_key'],
    });
    expect(Object.values(document.components.securitySchemes).map((s) => `${s.in}:${s.name}`)).toEqual([
      'header:X-Session-API-Key',
      'query:session_api_key',
    ]);
    expect(Object.keys(events['x-close-codes']).sort()).toEqual(['1001', '1008', '1009', '1011', '1013', '4001', '4004']);
    expect(Object.keys(document.channels.bashEvents!['x-close-codes']).sort()).toEqual(['1008', '1009', '1013', '4001']);
    expect(Object.keys(document.channels.bashEvents!.messages)).toEqual([
      'BashCommand',
      'BashOutput',
      'BashError',
      'ExecuteBashRequest',
      'AuthFrame',
    ]);
  });

  it('rejects a frame that is not what its kind says: a MessageEvent without llm_message, an ActionEvent with an unknown tool', () => {
    const validate = validatorOf(document);
    expect(validate('MessageEvent', { kind: 'MessageEvent', id: 'e', timestamp: 't', source: 'agent' })).toEqual([
      "MessageEvent must have required property 'llm_message'",
    ]);
    const action = {
      kind: 'ActionEvent',
      id: 'e',
      timestamp: 't',
      source: 'agent',
      thought: [],
      tool_name: 'x',
      tool_call_id: 'c',
      llm_response_id: 'r',
      // tool_call is required (openhands-sdk event/llm_convertible/action.py, ActionEvent.tool_call).
      tool_call: { id: 'c', name: 'terminal', arguments: '{"command": "ls"}', origin: 'completion' },
      action: { kind: 'ExecuteBashAction', command: 'ls', is_input: false, reset: false },
    };
    expect(validate('ActionEvent', action).length).toBeGreaterThan(0);
    expect(validate('ActionEvent', { ...action, action: { ...action.action, kind: 'TerminalAction' } })).toEqual([]);
    // A client tool's action (openhands-sdk tool/client_tool.py: kind ClientAction_<name>, its parameters as fields).
    expect(validate('ActionEvent', { ...action, action: { kind: 'ClientAction_canvas_ui_control', command: 'open_tab' } })).toEqual([]);
    expect(
      validate('ActionEvent', { ...action, action: { kind: 'ClientTool_canvas_ui_control', command: 'open_tab' } }).length,
    ).toBeGreaterThan(0);
  });
});

describe('/sockets/events/{conversation_id}: what it sends matches the document', () => {
  it("every frame of a run (the state, the history, the run a message frame starts) validates against its kind's payload", async () => {
    const cli = await newestFake();
    const conversation = await startConversation(cli);
    const document = (await (await fetch(`${cli.agentUrl}/asyncapi.json`)).json()) as Doc;
    const validate = validatorOf(document);
    const socket = openSocket(cli.agentUrl, conversation.id, 'resend_mode=all');
    await new Promise((r) => socket.ws.on('open', r));
    const auth = { type: 'auth', session_api_key: conversation.session_api_key };
    const message = { role: 'user', content: [{ type: 'text', text: 'Once more' }] };
    expect(validate('AuthFrame', auth)).toEqual([]);
    expect(validate('MessageFrame', message)).toEqual([]);
    socket.ws.send(JSON.stringify(auth));
    await socket.received(10);
    socket.ws.send(JSON.stringify(message));
    const frames = await socket.received(18);
    socket.ws.close();
    expect(new Set(frames.map((f) => f.kind))).toEqual(
      new Set(['ConversationStateUpdateEvent', 'SystemPromptEvent', 'MessageEvent', 'ActionEvent', 'ObservationEvent']),
    );
    expect(frames.flatMap((frame) => validate(String(frame.kind), frame))).toEqual([]);
  });
});

describe('/sockets/events/{conversation_id}: every kind Agent Canvas renders, as the document says', () => {
  it("the showcase's frames (every tool, client tools, vision, stats) and a goal's validate; a stats and a goal value under their key's schema", async () => {
    const cli = await newestFake();
    const conversation = await startConversation(cli);
    const document = (await (await fetch(`${cli.agentUrl}/asyncapi.json`)).json()) as Doc & {
      channels: { events: { messages: { ConversationStateUpdateEvent: { 'x-value-by-key': Record<string, { $ref: string }> } } } };
    };
    // The state keys Agent Canvas 1.20 types (conversation-state-event.d.ts: ConversationStateUpdateEventStats, ...Goal) name their schemas.
    expect(document.channels.events.messages.ConversationStateUpdateEvent['x-value-by-key']).toEqual({
      stats: { $ref: '#/components/schemas/ConversationStats' },
      goal: { $ref: '#/components/schemas/GoalStatus' },
    });
    const validate = validatorOf(document);
    const socket = openSocket(cli.agentUrl, conversation.id, `session_api_key=${conversation.session_api_key}`);
    await socket.received(1);
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
      expect(done()).toBe(true);
    };
    const headers = { 'content-type': 'application/json', 'x-session-api-key': conversation.session_api_key };
    const post = (path: string, body: unknown) =>
      fetch(`${cli.agentUrl}/api/conversations/${conversation.id}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    await post('/events', { role: 'user', content: [{ type: 'text', text: 'Run the showcase' }], run: true });
    await until(() => socket.frames.some((f) => f.value === 'error'));
    expect((await post('/goal', { objective: 'Make the tests pass' })).status).toBe(200);
    await until(() => socket.frames.some((f) => f.key === 'goal'));
    socket.ws.close();
    const inner = new Set(socket.frames.map((f) => String(((f.action ?? f.observation) as { kind?: string } | undefined)?.kind)));
    for (const kind of ['ClientAction_canvas_ui_control', 'ClientToolObservation', 'VisionInspectAction', 'BrowserGoBackAction'])
      expect(inner.has(kind), kind).toBe(true);
    expect(socket.frames.flatMap((frame) => validate(String(frame.kind), frame))).toEqual([]);
    const stateValue = (key: string) => socket.frames.find((f) => f.key === key)!.value;
    expect(validate('ConversationStats', stateValue('stats'))).toEqual([]);
    expect(validate('GoalStatus', stateValue('goal'))).toEqual([]);
    // The checks can fail: a stats value without its totals, a goal of an unknown status.
    expect(validate('ConversationStats', { usage_to_metrics: { agent: { model_name: 'm' } } }).length).toBeGreaterThan(0);
    expect(validate('GoalStatus', { ...(stateValue('goal') as object), status: 'done' }).length).toBeGreaterThan(0);
  });
});

describe('fakehands drift --asyncapi A B', () => {
  const nov2025 = asyncApiDocument({ version: '0.0.0', host: '127.0.0.1:1', agentServerVersion: '1.1.0' });
  const newest = asyncApiDocument({ version: '0.0.0', host: '127.0.0.1:1' });

  it('reports exactly the renamed kinds between the Nov 2025 dialect (1.1.0) and the newest, and nothing else', () => {
    expect(compareAsyncApi(nov2025, newest)).toEqual({
      added: [],
      removed: [],
      changed: [],
      renamed: [
        { from: 'ExecuteBashAction', to: 'TerminalAction' },
        { from: 'ExecuteBashObservation', to: 'TerminalObservation' },
      ],
    });
    expect(compareAsyncApi(newest, newest)).toEqual({ added: [], removed: [], renamed: [], changed: [] });
  });

  it('reports a dropped kind as removed, a new one as added, and a field a provider dropped or retyped by kind and field', () => {
    const provider = structuredClone(newest) as unknown as Doc;
    delete provider.components.schemas.PauseEvent;
    provider.components.schemas.GoalEvent = { type: 'object', properties: { kind: { const: 'GoalEvent' }, goal: { type: 'string' } } };
    const message = provider.components.schemas.MessageEvent as { properties: Record<string, unknown> };
    delete message.properties.llm_message;
    (provider.components.schemas.AgentErrorEvent as { properties: Record<string, unknown> }).properties.error = { type: 'integer' };
    expect(compareAsyncApi(newest, provider)).toEqual({
      added: ['GoalEvent'],
      removed: ['PauseEvent'],
      renamed: [],
      changed: [
        { kind: 'AgentErrorEvent', field: 'error', change: 'string (required) → integer (required)' },
        { kind: 'MessageEvent', field: 'llm_message', change: 'removed' },
        { kind: 'MessageEvent', field: 'llm_message.role', change: 'removed' },
        { kind: 'MessageEvent', field: 'llm_message.content', change: 'removed' },
        // Every field of the SDK's Message (openhands-sdk llm/message.py) goes with it.
        ...['tool_calls', 'tool_call_id', 'name', 'reasoning_content', 'thinking_blocks', 'responses_reasoning_item'].map((field) => ({
          kind: 'MessageEvent',
          field: `llm_message.${field}`,
          change: 'removed',
        })),
      ],
    });
  });

  it('prints the differences and the counts last, exit 1 when they differ and 0 when they do not', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-asyncapi-'));
    await writeFile(join(dir, 'a.json'), JSON.stringify(nov2025));
    await writeFile(join(dir, 'b.json'), JSON.stringify(newest));
    let out = '';
    expect(await runDrift(['--asyncapi', join(dir, 'a.json'), join(dir, 'b.json')], (text) => (out += text))).toBe(1);
    expect(out.trimEnd().split('\n').slice(1)).toEqual([
      '  renamed: ExecuteBashAction → TerminalAction',
      '  renamed: ExecuteBashObservation → TerminalObservation',
      'kinds renamed: 2; removed: 0; added: 0; fields changed: 0',
    ]);
    expect(await runDrift(['--asyncapi', join(dir, 'b.json'), join(dir, 'b.json')], () => undefined)).toBe(0);
    await expect(runDrift(['--asyncapi', join(dir, 'a.json')], () => undefined)).rejects.toThrow(
      'drift --asyncapi needs two documents: --asyncapi A B (files or URLs)',
    );
  });
});
