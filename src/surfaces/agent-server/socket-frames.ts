/**
 * A client's frame on the events socket, read under the same limits as an HTTP body (`http/parse.ts`):
 * its size, how deep it nests and how many values it holds are checked on its text before it is
 * parsed, so no frame, valid or not, makes validation do unbounded work (a content list of 200,000
 * items overflowed zod's stack and ended the process; a 400,000-deep list stalled the loop 3.3 s).
 * What a frame is not gets an error in the shape openhands-agent-server `sockets.py` (`events_socket`)
 * sends: a `ServerErrorEvent` whose `code` is the Python exception's class name (`JSONDecodeError`,
 * `ValidationError`) and whose `detail` is its text, cut to the first problems.
 */
import type * as z from 'zod/mini';
import { MAX_JSON_DEPTH, scanJsonShape } from '../../http/json-shape.js';
import { MAX_BODY_VALUES } from '../../http/parse.js';
import { findPythonJsonError } from '../../http/python-json.js';
import { toValidationErrors } from '../../http/validation.js';
import { SocketMessage } from '../../schemas/agent-server.js';
import { MessageContent } from '../../schemas/app-conversation.js';

/** Largest frame a client may send, in bytes (as an HTTP body: 1 MiB); the node server closes a bigger one with 1009. */
export const MAX_SOCKET_FRAME_BYTES = 1024 * 1024;
/** Most problems one error frame lists; the rest are counted, not listed. */
export const MAX_FRAME_ERRORS = 10;
/** Longest `detail` of an error frame, in characters. */
export const MAX_ERROR_DETAIL_CHARS = 4096;

/** What a client's frame is. */
export type ClientFrame =
  | { kind: 'auth'; key: unknown }
  | { kind: 'message'; message: z.output<typeof SocketMessage> }
  | { kind: 'error'; code: string; detail: string };

/** Python's `JSONDecodeError` text: `msg: line L column C (char P)`. */
function jsonDecodeDetail(text: string): string {
  const problem = findPythonJsonError(text) ?? { msg: 'Expecting value', pos: 0 };
  const before = Array.from(text).slice(0, problem.pos).join('');
  const line = before.split('\n').length;
  const column = problem.pos - (before.lastIndexOf('\n') + 1) + 1;
  return `${problem.msg}: line ${line} column ${column} (char ${problem.pos})`;
}

/** At most `MAX_ERROR_DETAIL_CHARS` characters, marked with `…` when cut. */
export const bounded = (detail: string) =>
  detail.length > MAX_ERROR_DETAIL_CHARS ? `${detail.slice(0, MAX_ERROR_DETAIL_CHARS - 1)}…` : detail;

/**
 * pydantic's `str(ValidationError)` for a `Message`, without the input echoes: the first
 * `MAX_FRAME_ERRORS` problems; `stopped` when checking stopped there.
 */
function validationDetail(issues: readonly z.core.$ZodIssue[], data: unknown, stopped: boolean): string {
  const items = toValidationErrors(issues.slice(0, MAX_FRAME_ERRORS), data, 'body');
  const lines = [
    `${stopped ? `More than ${MAX_FRAME_ERRORS}` : issues.length} validation error${issues.length === 1 ? '' : 's'} for Message`,
  ];
  for (const item of items) lines.push(item.loc.slice(1).join('.') || 'frame', `  ${item.msg} [type=${item.type}]`);
  if (stopped) lines.push(`(checking stopped after the first ${MAX_FRAME_ERRORS})`);
  else if (issues.length > MAX_FRAME_ERRORS) lines.push(`(${issues.length - MAX_FRAME_ERRORS} more not listed)`);
  return lines.join('\n');
}

/**
 * Validates a message, its content items one at a time, stopping after `MAX_FRAME_ERRORS` bad ones:
 * zod builds every issue of a failed union (both content kinds), and 1,990 bad items cost 40–200 ms
 * of the event loop when all were checked.
 */
function validateMessage(data: unknown): { ok: true; message: z.output<typeof SocketMessage> } | { ok: false; detail: string } {
  const content = typeof data === 'object' && data !== null ? (data as { content?: unknown }).content : undefined;
  if (Array.isArray(content)) {
    const issues: z.core.$ZodIssue[] = [];
    let bad = 0;
    for (let i = 0; i < content.length && bad <= MAX_FRAME_ERRORS; i++) {
      const item = MessageContent.safeParse(content[i], { reportInput: true });
      if (item.success) continue;
      bad++;
      for (const issue of item.error.issues) issues.push({ ...issue, path: ['content', i, ...issue.path] });
    }
    if (bad > 0) {
      // The rest of the frame (its role, its run) is checked without its content.
      const rest = SocketMessage.safeParse({ ...(data as object), content: [] }, { reportInput: true });
      const all = [...(rest.success ? [] : rest.error.issues), ...issues];
      return { ok: false, detail: bounded(validationDetail(all, data, bad > MAX_FRAME_ERRORS)) };
    }
  }
  const message = SocketMessage.safeParse(data, { reportInput: true });
  return message.success
    ? { ok: true, message: message.data }
    : { ok: false, detail: bounded(validationDetail(message.error.issues, data, false)) };
}

/**
 * Parses one text frame under the limits of an HTTP body (size, depth, values): its JSON value, or
 * the error to answer it with. Every socket reads its frames through this.
 * @example
 * const frame = readJsonFrame('{"command":"ls"}') // { kind: 'json', data: { command: 'ls' } }
 */
export function readJsonFrame(text: string): { kind: 'json'; data: unknown } | { kind: 'error'; code: string; detail: string } {
  if (text.length > MAX_SOCKET_FRAME_BYTES) {
    return { kind: 'error', code: 'ValidationError', detail: `The frame is larger than ${MAX_SOCKET_FRAME_BYTES} bytes` };
  }
  const shape = scanJsonShape(text, MAX_JSON_DEPTH, MAX_BODY_VALUES);
  if (shape.kind === 'too_deep') {
    // Python's decoder gives up near its recursion limit with a RecursionError; fakehands at a depth of 512.
    return { kind: 'error', code: 'RecursionError', detail: `The frame nests deeper than ${MAX_JSON_DEPTH} levels (at char ${shape.at})` };
  }
  if (shape.kind === 'too_many_values') {
    return {
      kind: 'error',
      code: 'ValidationError',
      detail: `The frame should have at most ${MAX_BODY_VALUES} values (lists, maps, their items and entries)`,
    };
  }
  try {
    return { kind: 'json', data: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'error', code: 'JSONDecodeError', detail: bounded(jsonDecodeDetail(text)) };
  }
}

/**
 * Reads one text frame: an `auth` frame, a message, or the error to answer it with.
 * @example
 * const frame = readClientFrame('{"role":"user","content":[{"type":"text","text":"hi"}]}') // { kind: 'message', ... }
 */
export function readClientFrame(text: string): ClientFrame {
  const frame = readJsonFrame(text);
  if (frame.kind === 'error') return frame;
  const data = frame.data;
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'auth')
    return { kind: 'auth', key: (data as { session_api_key?: unknown }).session_api_key };
  const message = validateMessage(data);
  return message.ok ? { kind: 'message', message: message.message } : { kind: 'error', code: 'ValidationError', detail: message.detail };
}
