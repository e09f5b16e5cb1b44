/** The error the typed clients (the app server's and the agent's) throw for an answer that is not a success. */

/** An answer that is not a success: its status and the parsed `detail` (a string, or FastAPI's list of problems). */
export class ApiError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** The `detail` of the body, when it has one. */
  readonly detail: unknown;
  /** The whole parsed body (or its text when it is not JSON). */
  readonly body: unknown;

  constructor(method: string, path: string, status: number, body: unknown) {
    const detail = typeof body === 'object' && body !== null && 'detail' in body ? (body as { detail: unknown }).detail : undefined;
    super(`${method} ${path} answered ${status}${typeof detail === 'string' ? `: ${detail}` : ''}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.body = body;
  }
}
