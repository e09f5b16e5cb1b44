/**
 * The one way anything in fakehands refuses a request: a `Refusal`, with a reason a surface maps
 * to its own status and error body (the app server: FastAPI's `{"detail": ...}`). Domain
 * operations throw one (or return one, where a refusal is an expected outcome); routes return one.
 * A `Refusal` is a `FakehandsError` whose `code` is its reason, so in-process callers switch on
 * `error.code` as before.
 */
import type { ValidationErrorItem } from '../../schemas/errors.js';
import { FakehandsError, type RefusalReason } from './errors.js';

export type { RefusalReason } from './errors.js';

/** A request refused: why (`reason`), what the client reads (`detail`), and, rarely, a body of the route's own. */
export class Refusal extends FakehandsError {
  /** Why the request is refused; each surface maps it to a status. */
  readonly reason: RefusalReason;
  /** What the client reads in the surface's error body. */
  readonly detail: string;
  /** The validation problems of an `invalid` refusal (a 422's items). */
  readonly errors: readonly ValidationErrorItem[];
  /** A body of the route's own instead of the surface's envelope (the legacy PATCH's `{"status": "error"}`). */
  readonly body: unknown;
  /** Headers the answer carries (the methods a 405 allows). */
  readonly headers: Readonly<Record<string, string>>;

  /** A refusal for `reason`; `message` (default: `detail`) is what an in-process caller reads. */
  constructor(
    reason: RefusalReason,
    detail: string,
    extra: { message?: string; errors?: readonly ValidationErrorItem[]; body?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(reason, extra.message ?? detail);
    this.name = 'Refusal';
    this.reason = reason;
    this.detail = detail;
    this.errors = extra.errors ?? [];
    this.body = extra.body;
    this.headers = extra.headers ?? {};
  }
}

/**
 * A refusal with the client-facing `detail`.
 * @example
 * return refuse('conflict', 'Sandbox is paused; resume it before switching profiles.')
 */
export const refuse = (reason: RefusalReason, detail: string): Refusal => new Refusal(reason, detail);

/**
 * A 422-style refusal carrying pydantic validation items.
 * @example
 * return invalid([{ type: 'missing', loc: ['body', 'title'], msg: 'Field required', input: {} }])
 */
export const invalid = (errors: readonly ValidationErrorItem[]): Refusal =>
  new Refusal('invalid', 'Validation Error', {
    errors,
    message: `Validation failed: ${errors.map((e) => `${e.loc.join('.')}: ${e.msg}`).join('; ')}`,
  });

/** Whether a value is a refusal. */
export const isRefusal = (value: unknown): value is Refusal => value instanceof Refusal;

/** Something named does not exist: answered `{"detail": "Not Found"}`; `what` is for in-process callers. */
export const notFound = (what: string): Refusal => new Refusal('not_found', 'Not Found', { message: `${what} not found` });

/** A request the real server refuses with 400 and this detail. */
export const badRequest = (detail: string): Refusal => new Refusal('bad_request', detail);
