/**
 * What a route is: where it is, whether it needs a key, what it accepts and answers, and the
 * operation behind it. A surface's route table is a list of these (`surfaces/<name>/routes/`).
 */
import type * as z from 'zod/mini';
import type { Refusal } from '../domain/store/refusal.js';
import type { Instance } from '../instance/instance.js';
import type { Answer } from './responses.js';
import type { JsonText } from './json-text.js';
import type { ErrorStatus } from './status.js';

export type { ErrorStatus } from './status.js';

/** A file of a multipart form, as a route's handler receives it (FastAPI's `UploadFile`). */
export interface UploadedFile {
  /** The name the client gave the file. */
  filename: string;
  /** Its media type, as the client declared it. */
  content_type: string;
  /** Its content. */
  bytes: Uint8Array;
}

/** The fields of a multipart form a route reads: `file` for an `UploadFile`, `files` for a `list[UploadFile]` (the field repeated), `text` for a string; each is required. */
export type FormFields = Readonly<Record<string, 'file' | 'files' | 'text'>>;

/** HTTP methods the API uses. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The name of a `:name` (or `:name*`) segment of a path. */
type ParamName<S extends string> = S extends `${infer Name}*` ? Name : S;

/** The names of a path's `:name` parameters: `/api/v1/sandboxes/:sandbox_id/pause` → `'sandbox_id'`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Segment}/${infer Rest}`
  ? ParamName<Segment> | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Segment}`
    ? ParamName<Segment>
    : never;

/** A route's path parameters, typed from its path (a plain record when the path is not a literal). */
export type PathParams<P extends string> = string extends P ? Record<string, string> : { readonly [K in PathParamNames<P>]: string };

/** What a route's handler receives: validated path parameters (typed from the path), query and body, and the request's headers. */
export interface RouteInput<Q, B, P extends string = string> {
  params: PathParams<P>;
  query: Q;
  body: B;
  headers: { get(name: string): string | null };
}

/** What a route's handler acts on: the instance the request reached. */
export type RouteContext = Instance;

/** What a route's handler answers: the 200 body (or its JSON text, `JsonText`), a `Refusal` (the surface answers it in its shape), or an `Answer` as it is (a ZIP, text, a stream). */
export type RouteResult<T> = T | Refusal | Answer | JsonText;

/** One endpoint: where it is, what it accepts, what it answers, and the operation behind it. */
export interface RouteSpec<Q extends z.ZodMiniType, B extends z.ZodMiniType, R extends z.ZodMiniType, P extends string = string> {
  /** HTTP method. */
  method: Method;
  /** Path relative to the base URL, with `:name` parameters (`/api/v1/sandboxes/:sandbox_id/pause`). */
  path: P;
  /** One line for the OpenAPI document and the README. */
  summary: string;
  /** Never needs a key, whatever the surface's auth rule (health, the document, sandbox-key routes that check their own key). */
  public?: boolean;
  /** Left out of the OpenAPI document of the API (the control API and the document itself). */
  internal?: boolean;
  /** Schema of the path parameters, when they are more than strings (a UUID): 422 at `["path", name]` otherwise. */
  params?: z.ZodMiniType;
  /**
   * A quicker check of the common path parameters: `true` only when `params` surely pass, and then
   * `params` is not run (any other parameters are checked by it, so every 422 is its own). For a hot
   * route only (issue 31: zod's check of an event search's conversation id).
   */
  paramsFastPath?: (params: Readonly<Record<string, string>>) => boolean;
  /** Schema of the query parameters (an object schema; unknown parameters are ignored). */
  query?: Q;
  /**
   * A quicker read of the common well-formed query string (`url.search`, its `?` included): what
   * reading it and `query` would give (key for key, in the same order), or `undefined` for any other
   * query, which `query` then checks (so every 422 is the schema's own). For a hot route only (issue
   * 31: zod's parse of an event search's `?limit=20`).
   */
  queryFastPath?: (search: string) => z.output<Q> | undefined;
  /** Query parameters that may repeat and are read as lists (`ids`, `id`). */
  lists?: readonly string[];
  /** Schema of the JSON body; the body is required when given, unless `bodyOptional`. */
  body?: B;
  /** An empty body reads as `{}` (control API); the document declares the body optional. */
  bodyOptional?: boolean;
  /** Most values (lists, maps, their items and entries) its JSON body may hold (default `MAX_BODY_VALUES`, 2,000): a recorded session's replay holds many more. */
  maxBodyValues?: number;
  /** Largest body it reads, in bytes, when that is more than the server's limit (a recorded session's archive); the server's limit otherwise. */
  maxBodyBytes?: number;
  /**
   * The body as the document declares it, when the real route declares a free-form object and checks
   * its keys in code (`payload: dict[str, Any]`): the fake still validates with `body`.
   */
  documentedBody?: z.ZodMiniType;
  /**
   * A quicker check of the common well-formed JSON body: what `body` would parse it to (key for
   * key, in the same order), or `undefined` for any other body, which `body` then checks (so every
   * 422 is the schema's own). For a hot route only (issue 31: zod's parse of a create's body).
   */
  bodyFastPath?: (value: unknown) => z.output<B> | undefined;
  /** The body may be absent or JSON `null` (FastAPI's `Body() = None`): both read as `{}`; the document declares it optional and nullable. */
  bodyNullable?: boolean;
  /** The body is a multipart form with these fields (the handler's `body` maps each to an `UploadedFile`, a list of them, or a string). */
  form?: FormFields;
  /** Schema of the success answer. */
  response: R;
  /** The status of the success answer (default 200; 201 for a route that creates, as the real one). */
  successStatus?: 200 | 201;
  /** Document the 200 answer as untyped (`{}`), as the real document does for routes that proxy the agent server; answers are still checked. */
  untypedInDocument?: boolean;
  /** Error statuses this route can answer with, besides 401 and 422. */
  errors?: readonly ErrorStatus[];
  /** The operation: the 200 body, a `Refusal`, or an `Answer` of its own. */
  handle(input: RouteInput<z.output<Q>, z.output<B>, P>, context: RouteContext): Promise<RouteResult<z.input<R>>>;
}

/** A route with its types erased, as the pipeline and transports hold it: a `RouteSpec` of any schemas. */
export interface Route extends Omit<RouteSpec<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType>, 'handle'> {
  /** The operation, its input unchecked by the type system (the pipeline validated it against the schemas). */
  handle(input: RouteInput<unknown, unknown>, context: RouteContext): Promise<unknown>;
}

/**
 * Declares a route with its handler typed from its schemas.
 * @example
 * defineRoute({ method: 'GET', path: '/api/v1/sandboxes/search', summary: 'Search sandboxes', query: PageQuery, response: pageOf(SandboxInfo), handle: ({ query }, { runner }) => runner.run(searchSandboxes, query) })
 */
export function defineRoute<
  P extends string,
  Q extends z.ZodMiniType = z.ZodMiniUndefined,
  B extends z.ZodMiniType = z.ZodMiniUndefined,
  R extends z.ZodMiniType = z.ZodMiniType,
>(spec: RouteSpec<Q, B, R, P>): Route {
  return spec as unknown as Route;
}
