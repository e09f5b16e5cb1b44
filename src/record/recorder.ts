/**
 * `fakehands record`'s recorder: a forwarding proxy (`proxy.ts`) whose every exchange and socket
 * goes, secrets masked (`scrub.ts`), into the folder's `recording.har` (HAR 1.2, appended as they
 * come), and whose answers and frames say what the server holds (`TrafficModel`): each
 * conversation's events written as the agent server exports them (`conversations/<id>.zip`:
 * `base_state.json` and `events/event-NNNNN-<id>.json`, what the replay reads). Bounded by
 * `maxBytes` (`RecordingBudget`): past it, bodies are no longer recorded, then nothing, each said once.
 */
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { zipPieces } from '../domain/agent/zip.js';
import {
  RECORDING_CONVERSATIONS,
  RECORDING_HAR,
  type HarEntry,
  type HarNameValue,
  type HarWebSocketMessage,
} from '../domain/recording/har.js';
import { TrafficModel } from '../domain/recording/traffic.js';
import { packageVersion } from '../package-root.js';
import { HarWriter, RecordingBudget } from './har-writer.js';
import { forwardUrl } from './forward.js';
import { HandedOutProxies } from './handed-out-proxies.js';
import { BODY_DECODERS, rewriteAnswer } from './handed-out.js';
import { CAPTURE_BYTES, startProxy, type ProxiedExchange, type ProxiedFrame, type ProxiedSocket, type ProxyHooks } from './proxy.js';
import { MAX_PLAIN_TEXT, Scrubber } from './scrub.js';

/** The default `--max-bytes`: 256 MiB. */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/** The largest body a recording keeps (masked a slice at a time); a larger one is forwarded, its size recorded. */
export const RECORDED_BODY_BYTES = 4 * 1024 * 1024;
/** How long after a change a conversation's ZIP is written. */
const ZIP_DELAY_MS = 300;

/** Which server answered: the target, or an agent server the target handed out (`handed-out.ts`). */
export type Answerer = 'target' | 'handed-out';

/** What compares each exchange with an in-process fake (`--compare`). */
export interface ExchangeCheck {
  /** Checks one exchange in the background. */
  check(exchange: ProxiedExchange, answerer: Answerer): void;
  /** A socket was opened (its frames follow). */
  opened(socket: ProxiedSocket): void;
  /** A frame passed on an open socket. */
  frame(socket: ProxiedSocket, frame: ProxiedFrame): void;
  /** A socket ended (or was still open when the recorder stopped): its frames are compared. */
  ended(socket: ProxiedSocket): void;
  /** Waits for the checks under way; the summary line. */
  close(): Promise<string>;
}

/** Options of a recorder. */
export interface RecorderOptions {
  /** The server recorded. */
  target: URL;
  /** The folder written (made when missing; one that holds a recording is refused). */
  out: string;
  host: string;
  port: number;
  maxBytes: number;
  /** Host names served besides loopback ones (`*`: any). */
  allowedHosts?: readonly string[];
  /** Where notes go (one line each: the target down, the limit reached). */
  note(line: string): void;
  /** The `--compare` check, if any (given the scrubber, so nothing it writes holds a secret). */
  compare?: (scrubber: Scrubber) => ExchangeCheck;
}

/** A running recorder. */
export interface Recorder {
  /** Where the proxy listens. */
  url: string;
  /** Stops: closes the sockets (written as they stood), writes every ZIP, masks late-learned secrets; the summary line. */
  close(): Promise<string>;
}

/** A header's value (the first), by name. */
const header = (pairs: readonly [string, string][], name: string) => pairs.find(([n]) => n.toLowerCase() === name)?.[1];

/** Whether a media type is text. */
const isText = (mime: string) => mime === '' || /json|text|xml|javascript|x-www-form-urlencoded|event-stream|graphql/i.test(mime);

/**
 * Starts recording `target` into `out`.
 * @example
 * const recorder = await startRecorder({ target: new URL('http://127.0.0.1:8000'), out: 'rec', host: '127.0.0.1', port: 0, maxBytes: DEFAULT_MAX_BYTES, note: console.error })
 */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const { target, out, note } = options;
  await mkdir(join(out, RECORDING_CONVERSATIONS), { recursive: true });
  const har = await HarWriter.create(join(out, RECORDING_HAR), { name: 'fakehands record', version: packageVersion() });
  const budget = new RecordingBudget(options.maxBytes, () => har.size);
  const scrubber = new Scrubber();
  const model = new TrafficModel();
  const compare = options.compare?.(scrubber);
  let chain: Promise<void> = Promise.resolve();
  const later = (work: () => Promise<void>) => {
    chain = chain.then(work).catch((error: unknown) => note(`fakehands record: ${(error as Error).message}`));
  };
  const said = new Set<string>();
  const once = (key: string, line: string) => {
    if (!said.has(key)) note(line);
    said.add(key);
  };
  let dropped = 0;
  let sockets = 0;
  const limit = `--max-bytes ${options.maxBytes}`;

  /** A body as the HAR keeps it (text masked, or why it is absent), and its parsed JSON for the model. */
  const bodyOf = async (bytes: Buffer | null, size: number, headers: [string, string][], path: string, side: 'request' | 'response') => {
    const mime = header(headers, 'content-type') ?? '';
    if (size === 0) return { mimeType: mime, parsed: undefined };
    if (bytes === null) return { mimeType: mime, comment: `not recorded: larger than ${CAPTURE_BYTES} bytes`, parsed: undefined };
    if (!isText(mime)) return { mimeType: mime, comment: 'not recorded: a binary body', parsed: undefined };
    if (!budget.bodyFits(size)) {
      once('bodies', `fakehands record: ${limit} reached: bodies are no longer recorded (exchanges still are)`);
      return { mimeType: mime, comment: `not recorded: ${limit} reached`, parsed: undefined };
    }
    const encoding = (header(headers, 'content-encoding') ?? '').toLowerCase();
    let plain = bytes;
    if (BODY_DECODERS[encoding]) {
      try {
        plain = await BODY_DECODERS[encoding](bytes, { maxOutputLength: CAPTURE_BYTES });
      } catch {
        return {
          mimeType: mime,
          comment: `not recorded: ${encoding} body that does not decode within ${CAPTURE_BYTES} bytes`,
          parsed: undefined,
        };
      }
    }
    if (plain.length > RECORDED_BODY_BYTES)
      return { mimeType: mime, comment: `not recorded: larger than ${RECORDED_BODY_BYTES} bytes`, parsed: undefined };
    const masked = await scrubber.body(plain.toString('utf8'), path, side);
    if (masked.text === null)
      return { mimeType: mime, comment: `not recorded: a text over ${MAX_PLAIN_TEXT} bytes that is no JSON`, parsed: undefined };
    return { mimeType: mime, text: masked.text, parsed: masked.parsed };
  };

  /** Writes an entry when it fits, else counts it. */
  const append = async (entry: HarEntry) => {
    const clean = scrubber.deep(entry);
    if (!budget.entryFits(HarWriter.sizeOf(clean))) {
      dropped++;
      once('entries', `fakehands record: ${limit} reached: nothing more is recorded (the proxy still forwards)`);
      return;
    }
    await har.append(clean);
  };

  const cookiesOf = (headers: [string, string][], name: 'cookie' | 'set-cookie') =>
    scrubber.cookies(
      name,
      headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v),
    );
  const queryOf = (url: URL): HarNameValue[] => [...new URL(scrubber.url(url)).searchParams].map(([name, value]) => ({ name, value }));

  const exchange = (x: ProxiedExchange, server: URL) =>
    later(async () => {
      const url = forwardUrl(server, x.path) ?? new URL(server);
      const request = await bodyOf(x.requestBody, x.requestSize, x.requestHeaders, url.pathname, 'request');
      const response = await bodyOf(x.responseBody, x.responseSize, x.responseHeaders, url.pathname, 'response');
      const { parsed: requestParsed, ...postData } = request;
      const { parsed: responseParsed, ...content } = response;
      await append({
        startedDateTime: new Date(x.startedAt).toISOString(),
        time: x.durationMs,
        request: {
          method: x.method,
          url: scrubber.url(url),
          httpVersion: 'HTTP/1.1',
          cookies: cookiesOf(x.requestHeaders, 'cookie'),
          headers: scrubber.headers(x.requestHeaders),
          queryString: queryOf(url),
          ...(x.requestSize > 0 ? { postData } : {}),
          headersSize: -1,
          bodySize: x.requestSize,
        },
        response: {
          status: x.status,
          statusText: x.statusText,
          httpVersion: 'HTTP/1.1',
          cookies: cookiesOf(x.responseHeaders, 'set-cookie'),
          headers: scrubber.headers(x.responseHeaders),
          content: { size: x.responseSize, ...content },
          redirectURL: header(x.responseHeaders, 'location') ?? '',
          headersSize: -1,
          bodySize: x.responseSize,
        },
        cache: {},
        timings: { send: 0, wait: x.durationMs, receive: 0 },
        ...(x.error ? { comment: `the target did not answer (${x.error}): the proxy answered 502` } : {}),
      });
      model.exchange({ method: x.method, url, status: x.status, request: requestParsed, response: responseParsed });
      scheduleZips();
    });

  /** Each socket's frames as the HAR keeps them (masked, a binary one's data left out), in order. */
  const framesOf = new Map<ProxiedSocket, HarWebSocketMessage[]>();
  /** A frame kept, masked, while the budget allows (masked in turn with the exchanges), and what it says of the conversation. */
  const frame = (socket: ProxiedSocket, f: ProxiedFrame, server: URL): null => {
    let kept = framesOf.get(socket);
    if (!kept) framesOf.set(socket, (kept = []));
    const list = kept;
    if (f.binary) {
      list.push({ type: f.type, time: f.time, opcode: 2, data: '' });
      return null;
    }
    if (!budget.bodyFits(f.data.length) || f.data.length > RECORDED_BODY_BYTES) {
      once('bodies', `fakehands record: ${limit} reached: bodies are no longer recorded (exchanges still are)`);
      return null;
    }
    const url = forwardUrl(server, socket.path) ?? new URL(server);
    const text = f.data.toString('utf8');
    later(async () => {
      const masked = await scrubber.body(text, url.pathname, f.type === 'receive' ? 'response' : 'request');
      list.push({ type: f.type, time: f.time, opcode: 1, data: masked.text ?? '' });
      if (f.type === 'receive') {
        model.frame(url, masked.parsed);
        scheduleZips();
      }
    });
    return null;
  };

  const socketEntry = (s: ProxiedSocket, server: URL) =>
    later(async () => {
      sockets++;
      // Its frames were masked before, in turn: the list is the entry's now.
      const messages = framesOf.get(s) ?? [];
      framesOf.delete(s);
      const url = forwardUrl(server, s.path) ?? new URL(server);
      url.protocol = server.protocol === 'https:' ? 'wss:' : 'ws:';
      await append({
        startedDateTime: new Date(s.startedAt).toISOString(),
        time: 0,
        request: {
          method: 'GET',
          url: scrubber.url(url),
          httpVersion: 'HTTP/1.1',
          cookies: cookiesOf(s.requestHeaders, 'cookie'),
          headers: scrubber.headers(s.requestHeaders),
          queryString: queryOf(url),
          headersSize: -1,
          bodySize: 0,
        },
        response: {
          status: s.status,
          statusText: s.status === 101 ? 'Switching Protocols' : '',
          httpVersion: 'HTTP/1.1',
          cookies: cookiesOf(s.responseHeaders, 'set-cookie'),
          headers: scrubber.headers(s.responseHeaders),
          content: { size: 0, mimeType: '' },
          redirectURL: '',
          headersSize: -1,
          bodySize: 0,
        },
        cache: {},
        timings: { send: 0, wait: 0, receive: 0 },
        _resourceType: 'websocket',
        _webSocketMessages: messages,
        ...(s.closed ? {} : { comment: 'still open when the recording stopped' }),
        ...(s.error ? { comment: `the target did not answer (${s.error}): the proxy answered 502` } : {}),
      });
    });

  /** A socket ended (or is cut by the recorder's stop): recorded, and compared. */
  const socketDone = (s: ProxiedSocket, server: URL) => {
    socketEntry(s, server);
    compare?.ended(s);
  };

  let zipTimer: NodeJS.Timeout | null = null;
  const scheduleZips = () => {
    if (zipTimer) return;
    zipTimer = setTimeout(() => {
      zipTimer = null;
      later(writeZips);
    }, ZIP_DELAY_MS);
  };
  /** Writes the ZIP of each conversation that changed (removes a deleted one's). */
  const writeZips = async () => {
    for (const id of model.takeChanged()) {
      if (!/^[\w-]{1,100}$/.test(id)) continue;
      const file = join(out, RECORDING_CONVERSATIONS, `${id}.zip`);
      const seen = model.conversations.get(id);
      if (!seen) {
        await rm(file, { force: true });
        budget.zipWritten(file, 0);
        continue;
      }
      const files: Record<string, string> = {};
      if (seen.info) files['base_state.json'] = `${JSON.stringify(scrubber.deep(seen.info), null, 2)}\n`;
      let size = 22;
      let since = performance.now();
      for (const [i, event] of TrafficModel.ordered(seen).entries()) {
        const name = `events/event-${String(i).padStart(5, '0')}-${String(event.id)}.json`;
        files[name] = `${JSON.stringify(scrubber.deep(event))}\n`;
        size += 2 * (46 + name.length) + Buffer.byteLength(files[name]);
        if (performance.now() - since > 8) {
          await new Promise((resolve) => setImmediate(resolve));
          since = performance.now();
        }
      }
      if (Object.keys(files).length === 0) continue;
      if (!budget.zipFits(file, size + (files['base_state.json']?.length ?? 0) + 100)) {
        once('zips', `fakehands record: ${limit} reached: conversation ${id}'s events are no longer written`);
        continue;
      }
      // Written beside, then moved in place: the folder always holds a whole archive.
      const handle = await open(`${file}.part`, 'w');
      try {
        for await (const piece of zipPieces(files, Date.now())) await handle.write(piece);
      } finally {
        await handle.close();
      }
      await rename(`${file}.part`, file);
      budget.zipWritten(file, (await stat(file)).size);
    }
  };

  /** Whether each server is down (said once until it answers again). */
  const down = new Set<string>();
  /** What a proxy in front of `server` tells the recorder. */
  const hooksFor = (server: URL, answerer: Answerer): ProxyHooks => ({
    exchange: (x) => {
      exchange(x, server);
      if (!x.error) compare?.check(x, answerer);
    },
    opened: (s) => compare?.opened(s),
    socket: (s) => socketDone(s, server),
    frame: (s, f) => {
      compare?.frame(s, f);
      return frame(s, f, server);
    },
    unreachable: (reason) => {
      if (!down.has(server.origin))
        note(
          `fakehands record: ${answerer === 'target' ? 'the target' : 'the server'} ${server.origin} is down (${reason}); answering 502 until it is back`,
        );
      down.add(server.origin);
    },
    reachable: () => {
      if (down.delete(server.origin))
        note(`fakehands record: ${answerer === 'target' ? 'the target' : 'the server'} ${server.origin} answers again`);
    },
    rewrite: (body, headers, host) =>
      rewriteAnswer(body, header(headers, 'content-encoding') ?? '', target, (origin) => handedOut.proxyFor(origin, host)),
  });
  const handedOut = new HandedOutProxies({
    target,
    host: options.host,
    start: (origin) =>
      startProxy({
        target: origin,
        host: options.host,
        port: 0,
        allowedHosts: options.allowedHosts ?? [],
        hooks: hooksFor(origin, 'handed-out'),
      }),
    note,
  });
  const proxy = await startProxy({
    target,
    host: options.host,
    port: options.port,
    allowedHosts: options.allowedHosts ?? [],
    hooks: hooksFor(target, 'target'),
  });
  handedOut.main = proxy;
  // A target that is down at the start is said at once, not at the first request.
  void fetch(target, { method: 'HEAD', signal: AbortSignal.timeout(5000) }).then(
    () => undefined,
    (error: { cause?: { code?: string }; name?: string }) => {
      if (error.name === 'TimeoutError') return;
      if (!down.has(target.origin))
        note(
          `fakehands record: the target ${target.origin} is down (${error.cause?.code ?? 'unreachable'}); answering 502 until it is back`,
        );
      down.add(target.origin);
    },
  );
  return {
    url: proxy.url,
    close: async () => {
      for (const s of await proxy.close()) socketDone(s, target);
      for (const [server, open] of await handedOut.close()) for (const s of open) socketDone(s, server);
      if (zipTimer) clearTimeout(zipTimer);
      later(writeZips);
      await chain;
      await har.close((text) => scrubber.text(text));
      const compared = compare ? ` ${await compare.close()}` : '';
      const lost = dropped > 0 ? `, ${dropped} not recorded (${limit})` : '';
      const servers = handedOut.size > 0 ? `, through ${handedOut.size} proxy(ies) of the servers it hands out` : '';
      return `recorded ${har.count} exchange(s) (${sockets} socket(s)${lost}${servers}) and ${model.conversations.size} conversation(s) into ${out}.${compared}`;
    },
  };
}
