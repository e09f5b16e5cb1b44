/**
 * Gives the TypeScript client its socket in Node: its `WebSocketCallbackClient` looks for
 * `window.WebSocket` or a CommonJS `require('ws')` when its module is first evaluated, and an ES
 * module has neither. Imported before the client, this puts a `require` on the global object for
 * that look-up, so `RemoteConversation.startWebSocketClient` opens `/sockets/events/{id}` as it does
 * under CommonJS.
 */
import { createRequire } from 'node:module';

const global = globalThis as { require?: NodeJS.Require };
global.require ??= createRequire(import.meta.url);
