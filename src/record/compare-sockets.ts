/**
 * `fakehands record --compare` on sockets: while a client's socket to the real agent server is
 * open, the same socket is open on the in-process fake (through the socket dispatcher every
 * transport uses, `mounts/sockets.ts`), the client's frames handed to both; when it ends, the
 * events each side sent are compared as the differential suite compares them (`real/compare.ts`:
 * kinds, sources, tool names, execution-status transitions, position by position).
 */
import type { FakeCore } from '../core.js';
import { isRefusal } from '../domain/store/refusal.js';
import { acceptSocket, placeSocket } from '../mounts/sockets.js';
import { eventName } from '../real/compare.js';
import type { ServedSocket } from '../surfaces/surface.js';

/** How long the fake's socket must be quiet before it is closed and compared, in ms. */
const QUIET_MS = 150;
/** The longest it is waited for to be quiet, in ms. */
const SETTLE_MS = 3000;
/** The largest frame read for its event's name; a larger one counts as `frame:large`. */
const MAX_NAMED_FRAME = 4 * 1024 * 1024;

/**
 * The event name of a socket frame's text (`eventName`), or what it is when it is no event.
 * @example
 * frameName('{"kind":"MessageEvent","source":"agent"}') // 'MessageEvent:agent'
 */
export function frameName(text: string): string {
  if (text.length > MAX_NAMED_FRAME) return 'frame:large';
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'kind' in value
      ? eventName(value as Record<string, unknown>)
      : 'frame:not-an-event';
  } catch {
    return 'frame:not-json';
  }
}

/** A socket open on the fake beside a client's socket to the real server. */
export interface MirroredSocket {
  /** The names of the frames the fake sent, in order (`frameName`). */
  readonly names: string[];
  /** Hands the fake a text frame the client sent. */
  send(text: string): void;
  /** Closes it once it has been quiet for a moment (the fake's answers to the last frames are in). */
  close(): Promise<void>;
}

/**
 * Opens `url` (a socket URL of the fake's agent host, `http:` or `ws:`) on `fake` in process; a
 * socket no route serves, or one the fake refuses, sends nothing.
 * @example
 * const mirror = await mirrorSocket(fake, new URL('http://agent.fakehands.invalid/sockets/events/ab12?resend_mode=all'))
 */
export async function mirrorSocket(fake: FakeCore, url: URL): Promise<MirroredSocket> {
  const names: string[] = [];
  let lastFrameAt = Date.now();
  let served: ServedSocket | null = null;
  let closed = false;
  const http = new URL(url.href.replace(/^ws/, 'http'));
  const placement = placeSocket(fake.mounts, http);
  const accepted = placement ? await acceptSocket(fake.mounts, placement, http, { get: () => null }) : null;
  if (accepted && !isRefusal(accepted))
    served = accepted({
      send: (text, written) => {
        if (!closed) names.push(frameName(text));
        lastFrameAt = Date.now();
        written();
      },
      close: () => {
        closed = true;
      },
      drop: () => {
        closed = true;
      },
    });
  return {
    names,
    send: (text) => {
      if (served && !closed) served.receive(text);
    },
    close: async () => {
      const deadline = Date.now() + SETTLE_MS;
      while (!closed && Date.now() - lastFrameAt < QUIET_MS && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 3));
      if (!closed) served?.closed();
      closed = true;
    },
  };
}
