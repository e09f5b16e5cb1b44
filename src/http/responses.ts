/**
 * Answers of the pipeline: plain status, headers and body text. Transports turn them into what
 * they speak (a Fetch `Response` for msw, a `node:http` response for the server), so no
 * transport pays for another's objects.
 */

/** A body: text, bytes (an archive), or text streamed piece by piece (stream-start). */
export type AnswerBody = string | Uint8Array | AsyncIterable<string | Uint8Array>;

/** An answer to a request. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The body, `null` for none. */
  body: AnswerBody | null;
  /** Drop the connection instead of answering (an injected network error). */
  networkError?: boolean;
  /** Why a request missed (no route, a method not allowed, a field refused), in one line for the log and the journal; never sent. */
  miss?: string;
}

/** What the pipeline reads of a request's URL: a `URL` is one, and so is the standalone server's plain path (parsed without `URL`). */
export type RequestUrl = Pick<URL, 'href' | 'origin' | 'pathname' | 'search' | 'searchParams'>;

/** What the pipeline reads of a request: a Fetch `Request` is one, and so is the server's light wrapper. */
export interface RequestLike {
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  /** `url` parsed already, when the transport had to parse it anyway (the standalone server): not parsed again. */
  readonly parsedUrl?: RequestUrl;
  readonly headers: { get(name: string): string | null };
  /** The body as text; `maxBytes`: the route takes up to that many bytes, past the transport's own limit. */
  text(maxBytes?: number): Promise<string>;
  /** The body as bytes (a multipart form's files); without it the text is read. `maxBytes` as for `text`. */
  arrayBuffer?(maxBytes?: number): Promise<ArrayBuffer>;
}

/** A JSON answer, written compactly as FastAPI writes it. */
export function json(status: number, body: unknown, headers?: Record<string, string>): Answer {
  const head = headers === undefined ? { 'content-type': 'application/json' } : { 'content-type': 'application/json', ...headers };
  return { status, headers: head, body: JSON.stringify(body) };
}

/**
 * An answer a route made itself, told apart from a 200 body that happens to look like one by its
 * class (not a `WeakSet` entry per answer: V8's ephemeron write barrier, issue 31).
 */
class RouteAnswer implements Answer {
  status: number;
  headers: Record<string, string>;
  body: AnswerBody | null;

  /** The answer `status`, `headers`, `body`. */
  constructor(status: number, headers: Record<string, string>, body: AnswerBody | null) {
    this.status = status;
    this.headers = headers;
    this.body = body;
  }
}

/**
 * An answer a route gives as it is, not as JSON: a ZIP, plain text, HTML, a stream.
 * @example
 * return raw(200, archive, 'application/zip', { 'content-disposition': 'attachment; filename="c.zip"' })
 */
export function raw(status: number, body: AnswerBody, contentType: string, headers: Record<string, string> = {}): Answer {
  return new RouteAnswer(status, { 'content-type': contentType, ...headers }, body);
}

/** Whether a route's result is an answer it made with `raw`. */
export const isRawAnswer = (value: unknown): value is Answer => value instanceof RouteAnswer;

/** No answer at all: the connection is dropped. */
export const networkError = (): Answer => ({ status: 0, headers: {}, body: null, networkError: true });

/** Whether a body arrives piece by piece. */
export function isStreamed(body: AnswerBody | null): body is AsyncIterable<string | Uint8Array> {
  return body !== null && typeof body === 'object' && Symbol.asyncIterator in body;
}

/** A body as a Fetch body: a stream that yields each piece as it is produced. */
function fetchBody(body: AnswerBody | null): BodyInit | null {
  if (!isStreamed(body)) return body as BodyInit | null;
  const encoder = new TextEncoder();
  const pieces = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value);
    },
    async cancel() {
      await pieces.return?.();
    },
  });
}

/** The Fetch `Response` of an answer (for msw and `fake.fetch`). */
export function toResponse(answer: Answer): Response {
  if (answer.networkError) return Response.error();
  // A 204 or 304 has no body at all (the Fetch `Response` refuses even an empty one).
  const bodiless = answer.status === 204 || answer.status === 304;
  return new Response(bodiless ? null : fetchBody(answer.body), { status: answer.status, headers: answer.headers });
}
