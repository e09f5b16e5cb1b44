/**
 * What a route is: where it is, who may call it, what it accepts and answers, and the operation
 * behind it. The route tables in `routes/` are lists of these.
 */
import type { z } from 'zod';
import type { Clock } from '../domain/clock.js';
import type { FakeService } from '../domain/service.js';
import type { Fixture } from '../schemas/records.js';
import type { Faults } from './faults.js';
import type { Journal } from './journal.js';
import type { ErrorStatus } from './status.js';

export type { ErrorStatus } from './status.js';

/** HTTP methods the API uses. */
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: `api` routes follow the auth policy (`all`, `legacy`, `none`); `control`
 * routes need the key unless the policy is `none`; `public` routes never do.
 */
export type RouteAccess = 'api' | 'control' | 'public';

/**
 * An answer a route gives in its own shape: another status (the legacy PATCH's 404
 * `{"status": "error", ...}`), or, with a content type, a body that is not JSON (a ZIP, plain
 * text, a stream). Routes return it; the pipeline answers it as it is.
 */
export class Reply {
  /** An answer with `status` and `body` (JSON unless `contentType` is given, then sent as it is). */
  constructor(readonly status: number, readonly body: unknown, readonly options: { contentType?: string; headers?: Record<string, string> } = {}) {}
}

/** What a route's handler receives: validated path parameters, query and body, and the request's headers. */
export interface RouteInput<Q, B> {
  params: Record<string, string>;
  query: Q;
  body: B;
  headers: { get(name: string): string | null };
}

/** What a route's handler can act on: the domain, and the fake's controls. */
export interface RouteContext {
  /** The domain operations. */
  service: FakeService;
  /** The fake's clock. */
  clock: Clock;
  /** The faults in force. */
  faults: Faults;
  /** The request journal. */
  journal: Journal;
  /** Replaces the state with a fixture named by the control API (built-in, or in the fixtures directory) and seed; a failure changes nothing. */
  resetByName(options: { fixture?: string; seed?: number }): Promise<void>;
  /** Everything the fake holds. */
  snapshot(): Promise<Fixture>;
  /** The OpenAPI document of the API routes. */
  openApi(): unknown;
}

/** One endpoint: where it is, what it accepts, what it answers, and the operation behind it. */
export interface RouteSpec<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> {
  /** HTTP method. */
  method: Method;
  /** Path relative to the base URL, with `:name` parameters (`/api/v1/sandboxes/:sandbox_id/pause`). */
  path: string;
  /** One line for the OpenAPI document and the README. */
  summary: string;
  /** Who may call it (default `api`). */
  access?: RouteAccess;
  /** Left out of the OpenAPI document of the API (the control API and the document itself). */
  internal?: boolean;
  /** Schema of the path parameters, when they are more than strings (a UUID): 422 at `["path", name]` otherwise. */
  params?: z.ZodType;
  /** Schema of the query parameters (an object schema; unknown parameters are ignored). */
  query?: Q;
  /** Query parameters that may repeat and are read as lists (`ids`, `id`). */
  lists?: readonly string[];
  /** Schema of the JSON body; the body is required when given, unless `bodyOptional`. */
  body?: B;
  /** An empty body reads as `{}` (control API). */
  bodyOptional?: boolean;
  /** Schema of the 200 answer. */
  response: R;
  /** Document the 200 answer as untyped (`{}`), as the real document does for routes that proxy the agent server; answers are still checked. */
  untypedInDocument?: boolean;
  /** Error statuses this route can answer with, besides 401 and 422. */
  errors?: readonly ErrorStatus[];
  /** The operation: the 200 body, or a `Reply` with another status. */
  handle(input: RouteInput<z.output<Q>, z.output<B>>, context: RouteContext): Promise<z.input<R> | Reply>;
}

/** A route with its types erased, as the pipeline and transports hold it. */
export interface Route {
  method: Method;
  path: string;
  summary: string;
  access?: RouteAccess;
  internal?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  lists?: readonly string[];
  body?: z.ZodType;
  bodyOptional?: boolean;
  response: z.ZodType;
  untypedInDocument?: boolean;
  errors?: readonly ErrorStatus[];
  handle(input: RouteInput<unknown, unknown>, context: RouteContext): Promise<unknown>;
}

/**
 * Declares a route with its handler typed from its schemas.
 * @example
 * defineRoute({ method: 'GET', path: '/api/v1/sandboxes/search', summary: 'Search sandboxes', query: PageQuery, response: pageOf(SandboxInfo), handle: ({ query }, { service }) => service.searchSandboxes(query) })
 */
export function defineRoute<Q extends z.ZodType = z.ZodUndefined, B extends z.ZodType = z.ZodUndefined, R extends z.ZodType = z.ZodType>(spec: RouteSpec<Q, B, R>): Route {
  return spec as unknown as Route;
}
