/**
 * One request of the standalone server as the pipeline reads it (a `RequestLike`), and what its
 * answer needs (its response, CORS origin, connection persistence): one object per request, its
 * methods on the prototype, so a request makes no closures, no `URL` for a plain path, and reads
 * its headers from node:http's own object (issue 31: the fixed cost every request pays).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { RequestLike, RequestUrl } from '../http/responses.js';
import type { Persistence } from './answer-head.js';
import { BodyReadError, type BodyLimits, type Semaphore, bufferedBody, readBody } from './request-body.js';

/** A request's headers read by name, as a Fetch `Headers` reads them (a repeated header joined with `, `). */
class MessageHeaders {
  readonly #headers: IncomingHttpHeaders;

  /** Reads `headers` (node:http's, lower-case names). */
  constructor(headers: IncomingHttpHeaders) {
    this.#headers = headers;
  }

  /** The header `name`, or `null`. */
  get(name: string): string | null {
    const value = this.#headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
}

/**
 * The URL of a request whose target is a plain path (and query): what `new URL` makes of it,
 * without parsing it. Only for a target `PLAIN_TARGET` accepts, one `new URL` leaves as it is.
 */
class PlainUrl implements RequestUrl {
  readonly origin: string;
  readonly pathname: string;
  readonly search: string;
  readonly #target: string;
  #params: URLSearchParams | null = null;

  /** The URL of `target` at `origin`: its `pathname` and `search` (with its `?`, or `''`). */
  constructor(origin: string, target: string, pathname: string, search: string) {
    this.origin = origin;
    this.#target = target;
    this.pathname = pathname;
    this.search = search;
  }

  /** The whole URL (an empty query's `?` kept, as `new URL` keeps it). */
  get href(): string {
    return `${this.origin}${this.#target}`;
  }

  /** The query's parameters (made the first time they are asked for). */
  get searchParams(): URLSearchParams {
    this.#params ??= new URLSearchParams(this.search);
    return this.#params;
  }
}

/**
 * A request target `new URL` keeps byte for byte: a path of unreserved and sub-delimiter characters
 * (no `\`, space, quote, `<`, `>`, `^`, `` ` ``, `{`, `}`, `|`, `#` or non-ASCII it would encode or
 * change), an optional query of the same (no `'`, which it encodes in a query).
 */
const PLAIN_TARGET = /^\/[\w\-.~!$&()*+,;=:@%/]*(?:\?[\w\-.~!$&()*+,;=:@%/?]*)?$/;
/** A dot segment (`.`, `..`, `%2e`) `new URL` would resolve: such a path is parsed by it. */
const DOT_SEGMENT = /\/\.|%2e/i;

/** The URL of `target` (a request's target, from its request line) at `origin`, or `null` when it is no URL. */
export function requestUrl(origin: string, target: string): RequestUrl | null {
  if (PLAIN_TARGET.test(target)) {
    const query = target.indexOf('?');
    const path = query < 0 ? target : target.slice(0, query);
    if (!DOT_SEGMENT.test(path))
      // `?` alone is an empty query: `new URL` gives `search` `''` for it.
      return new PlainUrl(origin, target, path, query < 0 || query === target.length - 1 ? '' : target.slice(query));
  }
  if (target.startsWith('/')) {
    try {
      return new URL(`${origin}${target}`);
    } catch {
      // resolved the slow way below
    }
  }
  // An absolute-form or odd request target: resolved the slow way, or none.
  return URL.canParse(target, origin) ? new URL(new URL(target, origin).href) : null;
}

/** A request being answered: read by the pipeline, its body read (once) only when asked for. */
export class ServerRequest implements RequestLike {
  readonly method: string;
  readonly headers: MessageHeaders;
  /** The request's URL, set once its target is parsed. */
  parsedUrl: RequestUrl | undefined = undefined;
  /** The origin of an allowed cross-origin request (its answer gets CORS headers), or `null`. */
  readonly allowedOrigin: string | null;
  /** When it started (for the request log; 0 without one). */
  readonly started: number;
  /** Why its answer missed (`Answer.miss`), for the request log. */
  miss: string | undefined = undefined;
  readonly #message: IncomingMessage;
  readonly #limits: BodyLimits;
  readonly #bodies: Semaphore;
  #body: Promise<Buffer> | null = null;

  /** A request of `message`, answered on `response`; bodies read under `limits`, `bodies` at once. */
  constructor(
    message: IncomingMessage,
    readonly response: ServerResponse,
    readonly persistence: Persistence,
    method: string,
    allowedOrigin: string | null,
    started: number,
    limits: BodyLimits,
    bodies: Semaphore,
  ) {
    this.#message = message;
    this.method = method;
    this.headers = new MessageHeaders(message.headers);
    this.allowedOrigin = allowedOrigin;
    this.started = started;
    this.#limits = limits;
    this.#bodies = bodies;
  }

  /** The absolute URL. */
  get url(): string {
    return this.parsedUrl!.href;
  }

  /** Whether the pipeline asked for the body. */
  get bodyAsked(): boolean {
    return this.#body !== null;
  }

  /** The body as text (up to `maxBytes` when the route takes more than the server's limit). */
  text(maxBytes?: number): Promise<string> {
    return this.#read(maxBytes).then(utf8);
  }

  /** The body as bytes (up to `maxBytes` when the route takes more than the server's limit). */
  async arrayBuffer(maxBytes?: number): Promise<ArrayBuffer> {
    const bytes = await this.#read(maxBytes);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  /** The body, read once; one declared larger than the limit is refused (413) without reading a byte. */
  #read(maxBytes?: number): Promise<Buffer> {
    if (this.#body) return this.#body;
    const message = this.#message;
    const limits = maxBytes !== undefined && maxBytes > this.#limits.maxBytes ? { ...this.#limits, maxBytes } : this.#limits;
    if (Number(message.headers['content-length'] ?? 0) > limits.maxBytes)
      return (this.#body = Promise.reject(new BodyReadError(413, 'Request body too large')));
    // A body that has arrived whole needs no place among the bodies being read.
    const whole = bufferedBody(message, limits.maxBytes);
    if (whole) return (this.#body = Promise.resolve(whole));
    // Asked for in the request's event, emitted on the headers before node:http parses the body
    // sent with them (not even a tick later): in the next check phase that body (a create's) is
    // whole, and read then without a timer, listeners or a place among the bodies being read.
    return (this.#body = new Promise<void>((resolve) => setImmediate(resolve)).then(
      () => bufferedBody(message, limits.maxBytes) ?? this.#bodies.run(() => readBody(message, limits)),
    ));
  }
}

/** A body's bytes as text. */
const utf8 = (bytes: Buffer) => bytes.toString('utf8');
