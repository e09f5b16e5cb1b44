/**
 * The AsyncAPI 3.1 document of the agent server's sockets (`/sockets/events/{conversation_id}`,
 * `/sockets/bash-events`), generated from the zod schemas of their frames and events
 * (`schemas/agent-events.ts`) with zod's JSON Schema writer, as `http/openapi.ts` writes the
 * OpenAPI document: every kind of `EventKind` is a message, so a kind added there is in the
 * document. The auth ways, query parameters and close codes are the ones `sockets.ts`,
 * `bash-socket.ts`, `socket-frames.ts` and `socket-outbox.ts` implement (their constants).
 * `version` picks the dialect (`domain/agent/dialect.ts`): older servers' tool kinds are renamed.
 */
import * as z from 'zod/mini';
import { kindInDialect } from '../../domain/agent/dialect.js';
import { defineRoute } from '../../http/route.js';
import { SESSION_API_KEY_HEADER } from '../../http/auth.js';
import {
  AgentActions,
  AgentObservations,
  BashEventSchemas,
  SocketAuthFrame,
  SocketMessageFrame,
  STATE_VALUE_SCHEMAS,
  agentEventSchema,
  socketEventKinds,
} from '../../schemas/agent-events.js';
import { ExecuteBashRequest } from './bash-routes.js';
import { BASH_SOCKET_PATH, MAX_BASH_SUBSCRIBERS } from './bash-socket.js';
import { MAX_SOCKET_FRAME_BYTES } from './socket-frames.js';
import { SLOW_READER_CLOSE_CODE, SLOW_READER_CLOSE_REASON } from './socket-outbox.js';
import { AUTH_FRAME_TIMEOUT_MS, MAX_SUBSCRIBERS, SANDBOX_DOWN_CLOSE_CODE } from './sockets.js';

type JsonSchema = Record<string, unknown>;

/** The close codes of the events socket, with what each means. */
export const EVENT_SOCKET_CLOSE_CODES: Readonly<Record<string, string>> = Object.freeze({
  4001: `Authentication failed: a wrong session key, or no auth frame within ${AUTH_FRAME_TIMEOUT_MS / 1000} s`,
  4004: 'Conversation not found',
  1013: `Too many connections for this conversation (more than ${MAX_SUBSCRIBERS})`,
  [SLOW_READER_CLOSE_CODE]: SLOW_READER_CLOSE_REASON,
  1009: `A frame larger than ${MAX_SOCKET_FRAME_BYTES} bytes`,
  1011: 'Internal error',
  [SANDBOX_DOWN_CLOSE_CODE]: "The key's sandbox is not running: the reason is its status and, for a failed one, its status_detail",
});

/** The close codes of the bash socket. */
export const BASH_SOCKET_CLOSE_CODES: Readonly<Record<string, string>> = Object.freeze({
  4001: EVENT_SOCKET_CLOSE_CODES[4001]!,
  1013: `Too many bash event connections (more than ${MAX_BASH_SUBSCRIBERS})`,
  [SLOW_READER_CLOSE_CODE]: SLOW_READER_CLOSE_REASON,
  1009: EVENT_SOCKET_CLOSE_CODES[1009]!,
});

const COMPONENT = '#/components/schemas/';

/** JSON Schema (draft-07; `io`: what the server sends, or what a client may send, defaults optional), AsyncAPI's schema dialect) of every registered schema, referring to each other by `$ref`. */
function componentSchemas(entries: Record<string, z.ZodMiniType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(entries)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-7', unrepresentable: 'any', io, uri: (id) => `${COMPONENT}${id}` }) as {
    schemas: Record<string, JsonSchema>;
  };
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...rest }]) => [id, rest]));
}

/** Renames tool kinds to `version`'s names: the schemas' names, their `$ref`s and their `kind` constants. */
function inDialect(value: unknown, version: string | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => inDialect(item, version));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT))
        return [key, COMPONENT + kindInDialect(inner.slice(COMPONENT.length), version)];
      if (key === 'const' && typeof inner === 'string') return [key, kindInDialect(inner, version)];
      return [kindInDialect(key, version), inDialect(inner, version)];
    }),
  );
}

/** Facts about the served sockets that the document states. */
export interface AsyncApiInfo {
  /** Version of fakehands. */
  version: string;
  /** The agent-server version whose dialect the document speaks (absent: the newest). */
  agentServerVersion?: string;
  /** Host (and port) the sockets are served at. */
  host: string;
}

const message = (name: string, summary: string) => ({ name, title: name, summary, payload: { $ref: `${COMPONENT}${name}` } });
const refs = (channel: string, names: readonly string[]) => names.map((name) => ({ $ref: `#/channels/${channel}/messages/${name}` }));
const HEADER = SESSION_API_KEY_HEADER.replace(/(^|-)\w/g, (c) => c.toUpperCase()).replace('Api', 'API');
const KEY_QUERY = { type: 'string', description: 'The session key (one of the auth ways)' };
const RESEND = {
  type: 'string',
  enum: ['all', 'since'],
  description: '`all`: every stored event first; `since`: those at or after `after_timestamp`',
};

/**
 * Builds the AsyncAPI 3.1 document of the agent server's sockets.
 * @example
 * const document = asyncApiDocument({ version: '0.1.0', host: '127.0.0.1:3000' })
 */
export function asyncApiDocument(info: AsyncApiInfo): JsonSchema {
  const eventKinds = socketEventKinds();
  const bashKinds = Object.keys(BashEventSchemas);
  const schemas = componentSchemas(
    {
      ...AgentActions,
      ...AgentObservations,
      ...Object.fromEntries(eventKinds.map((kind) => [kind, agentEventSchema(kind)])),
      ...BashEventSchemas,
      ConversationStats: STATE_VALUE_SCHEMAS.stats,
      GoalStatus: STATE_VALUE_SCHEMAS.goal,
    },
    'output',
  );
  Object.assign(schemas, componentSchemas({ MessageFrame: SocketMessageFrame, AuthFrame: SocketAuthFrame, ExecuteBashRequest }, 'input'));
  const eventMessages: Record<string, JsonSchema> = Object.fromEntries(
    eventKinds.map((kind) => [kind, message(kind, `The server sends a ${kind}`)]),
  );
  // A state update's `value` by its `key`: the whole state, a status, or a schema of its own (`STATE_VALUE_SCHEMAS`).
  eventMessages.ConversationStateUpdateEvent = {
    ...eventMessages.ConversationStateUpdateEvent,
    description:
      'Its `value` by `key`: `full_state`, the whole conversation state (with `stats`, whole `Metrics` per usage id); `execution_status`, the status; `stats`, `ConversationStats` (a `MetricsSnapshot` per LLM usage id); `goal`, `GoalStatus`; `last_user_message_id`, the id of the user `MessageEvent` just published (servers since 1.11.5).',
    'x-value-by-key': { stats: { $ref: `${COMPONENT}ConversationStats` }, goal: { $ref: `${COMPONENT}GoalStatus` } },
  };
  const bashMessages = Object.fromEntries(bashKinds.map((kind) => [kind, message(kind, `The server sends a ${kind}`)]));
  const auth = `The session key: the \`session_api_key\` query parameter, the \`${HEADER}\` header, or a first \`{"type": "auth"}\` frame within ${AUTH_FRAME_TIMEOUT_MS / 1000} s.`;
  const document = {
    asyncapi: '3.1.0',
    info: {
      title: 'OpenHands agent server sockets (fakehands)',
      version: info.version,
      description: `The agent server's sockets as fakehands serves them (agent-server dialect ${info.agentServerVersion ?? 'newest'}), generated from its zod schemas. ${auth}`,
    },
    defaultContentType: 'application/json',
    servers: {
      agent: {
        host: info.host,
        protocol: 'ws',
        description: 'The agent host',
        security: [
          { $ref: '#/components/securitySchemes/sessionApiKeyHeader' },
          { $ref: '#/components/securitySchemes/sessionApiKeyQuery' },
        ],
      },
    },
    channels: {
      events: {
        address: '/sockets/events/{conversation_id}',
        title: "A conversation's events",
        description: `A \`ConversationStateUpdateEvent\` (\`full_state\`) first, then every event as it is published; a client frame is a message that runs the agent (or the auth frame). ${auth}`,
        parameters: { conversation_id: { description: "The conversation's id" } },
        messages: {
          ...eventMessages,
          MessageFrame: message('MessageFrame', 'A message to the agent (runs it unless `run` is false)'),
          AuthFrame: message('AuthFrame', 'The session key, when none came with the request'),
        },
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: {
                session_api_key: KEY_QUERY,
                resend_mode: RESEND,
                after_timestamp: { type: 'string', description: 'With `resend_mode=since`: an ISO datetime' },
                resend_all: { type: 'boolean', description: 'Deprecated: `resend_mode=all`' },
              },
            },
            headers: { type: 'object', properties: { [HEADER]: KEY_QUERY } },
          },
        },
        'x-close-codes': EVENT_SOCKET_CLOSE_CODES,
      },
      bashEvents: {
        address: BASH_SOCKET_PATH,
        title: "The host's bash events",
        description: `Every bash command and output line as it is published; a client frame is an \`ExecuteBashRequest\` that starts a command (or the auth frame). ${auth}`,
        messages: {
          ...bashMessages,
          ExecuteBashRequest: message('ExecuteBashRequest', 'A command to start'),
          AuthFrame: message('AuthFrame', 'The session key, when none came with the request'),
        },
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: {
                session_api_key: KEY_QUERY,
                resend_mode: { type: 'string', enum: ['all'] },
                resend_all: { type: 'boolean', description: 'Deprecated: `resend_mode=all`' },
              },
            },
            headers: { type: 'object', properties: { [HEADER]: KEY_QUERY } },
          },
        },
        'x-close-codes': BASH_SOCKET_CLOSE_CODES,
      },
    },
    operations: {
      sendEvents: {
        action: 'send',
        channel: { $ref: '#/channels/events' },
        summary: "The server sends the conversation's events",
        messages: refs('events', eventKinds),
      },
      receiveEventFrames: {
        action: 'receive',
        channel: { $ref: '#/channels/events' },
        summary: 'The server receives a message or the auth frame',
        messages: refs('events', ['MessageFrame', 'AuthFrame']),
      },
      sendBashEvents: {
        action: 'send',
        channel: { $ref: '#/channels/bashEvents' },
        summary: 'The server sends bash events',
        messages: refs('bashEvents', bashKinds),
      },
      receiveBashFrames: {
        action: 'receive',
        channel: { $ref: '#/channels/bashEvents' },
        summary: 'The server receives a command or the auth frame',
        messages: refs('bashEvents', ['ExecuteBashRequest', 'AuthFrame']),
      },
    },
    components: {
      schemas,
      securitySchemes: {
        sessionApiKeyHeader: { type: 'httpApiKey', in: 'header', name: HEADER, description: "The sandbox's session key" },
        sessionApiKeyQuery: { type: 'httpApiKey', in: 'query', name: 'session_api_key', description: "The sandbox's session key" },
      },
    },
  };
  return inDialect(document, info.agentServerVersion) as JsonSchema;
}

/** The AsyncAPI document of each instance, made once (its dialect never changes). */
const documents = new WeakMap<object, Record<string, unknown>>();

/** The path the agent host serves the AsyncAPI document at. */
export const ASYNCAPI_PATH = '/asyncapi.json';

/** `GET /asyncapi.json`: the AsyncAPI document of the sockets, in the instance's agent-server dialect. */
export const asyncApiRoute = defineRoute({
  method: 'GET',
  path: ASYNCAPI_PATH,
  summary: 'The AsyncAPI 3.1 document of the sockets',
  public: true,
  internal: true,
  response: z.record(z.string(), z.unknown()),
  handle: async (_input, instance) => {
    let document = documents.get(instance);
    if (!document) {
      const host = new URL(instance.options.agentUrl ?? instance.options.baseUrl).host;
      documents.set(
        instance,
        (document = asyncApiDocument({ version: instance.version, host, agentServerVersion: instance.options.agentServerVersion })),
      );
    }
    return document;
  },
});
