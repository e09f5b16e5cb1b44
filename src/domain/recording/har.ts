/**
 * A recording of a real session: its exchanges as HAR 1.2 (the HTTP Archive format of
 * http://www.softwareishard.com/blog/har-12-spec/, what a browser's devtools export), a WebSocket's
 * frames in an entry's `_webSocketMessages` (Chromium's field), and each conversation's events as
 * the agent server exports them (`GET /api/file/download-trajectory/{id}`'s ZIP). What
 * `fakehands record` writes and `createFake({ recording })` reads. Pure: no Node built-in.
 */

/** A header, a query parameter or a cookie: a name and its value. */
export interface HarNameValue {
  /** Its name. */
  name: string;
  /** Its value (a secret's is masked). */
  value: string;
}

/** A request or response body as HAR keeps it. */
export interface HarContent {
  /** Its length in bytes. */
  size: number;
  /** Its media type. */
  mimeType: string;
  /** Its text (base64 when `encoding` says so); absent when it was not recorded. */
  text?: string;
  /** `base64` for a binary body. */
  encoding?: string;
  /** Why the text is absent, when it is. */
  comment?: string;
}

/** One request of an exchange. */
export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: { mimeType: string; text?: string; encoding?: string; comment?: string };
  headersSize: number;
  bodySize: number;
}

/** One response of an exchange. */
export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  content: HarContent;
  redirectURL: string;
  headersSize: number;
  bodySize: number;
}

/** One WebSocket frame (Chromium's `_webSocketMessages`): who sent it, when (epoch seconds), its opcode and data. */
export interface HarWebSocketMessage {
  type: 'send' | 'receive';
  time: number;
  opcode: number;
  data: string;
}

/** One exchange. */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** `websocket` for a socket's entry (Chromium's field). */
  _resourceType?: string;
  /** A socket's frames, in order. */
  _webSocketMessages?: HarWebSocketMessage[];
  comment?: string;
}

/** A HAR file. */
export interface Har {
  log: {
    version: string;
    creator: { name: string; version: string };
    pages?: unknown[];
    entries: HarEntry[];
    comment?: string;
  };
}

/** A recording, parsed: its HAR and each conversation's exported ZIP (by conversation id), as `fakehands record` writes them in its folder. */
export interface Recording {
  /** Every exchange. */
  har: Har;
  /** Each conversation's events in the agent server's export layout (`base_state.json`, `events/event-NNNNN-<id>.json`), by conversation id. */
  conversations?: Readonly<Record<string, Uint8Array>>;
}

/** The HAR file of a recording folder. */
export const RECORDING_HAR = 'recording.har';
/** The folder of a recording that holds each conversation's ZIP (`conversations/<id>.zip`). */
export const RECORDING_CONVERSATIONS = 'conversations';

/** The first segments of the OpenHands servers' paths: a host serving any of them is an OpenHands one. */
const OPENHANDS_PATH =
  /^\/(api\/(v1|conversations|settings|secrets|options|user|bash|file|git|profiles|keys|skills|vscode|desktop|tools|hooks|llm|workspace|auth|mcp|unset-provider-tokens|add-git-providers|reset-settings|authenticate|logout)\b|sockets\/|server_info$|alive$|health$|ready$)/;

/** Whether `path` is one of the OpenHands servers' (the app server's or the agent server's). */
export const isOpenHandsPath = (path: string): boolean => OPENHANDS_PATH.test(path);

/** A HAR entry's body text, decoded from base64 when it is; `undefined` when none was recorded. */
export function bodyText(content: { text?: string; encoding?: string } | undefined): string | undefined {
  if (content?.text === undefined) return undefined;
  if (content.encoding !== 'base64') return content.text;
  try {
    const binary = atob(content.text);
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** JSON text parsed, or `undefined` when it is not JSON. */
export function parsedJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Why `value` is no HAR (one line), or `null` when it is one: a `log` with `entries`, each with a request's method and URL and a response's status. */
export function harProblem(value: unknown): string | null {
  const log = (value as { log?: { entries?: unknown } } | null)?.log;
  if (typeof log !== 'object' || log === null) return 'no "log" object (a HAR file has {"log": {"entries": [...]}})';
  if (!Array.isArray(log.entries)) return 'no "log.entries" list';
  for (const [i, entry] of (log.entries as unknown[]).entries()) {
    const e = entry as { request?: { method?: unknown; url?: unknown }; response?: { status?: unknown } } | null;
    if (typeof e?.request?.method !== 'string' || typeof e.request.url !== 'string')
      return `log.entries[${i}].request needs a method and a url`;
    if (typeof e.response?.status !== 'number') return `log.entries[${i}].response needs a status`;
  }
  return null;
}
