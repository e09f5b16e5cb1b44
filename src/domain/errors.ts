/** A domain operation named something that does not exist (HTTP 404 `{"detail": "Not Found"}`). */
export class NotFoundError extends Error {
  constructor(what: string) {
    super(`${what} not found`);
    this.name = 'NotFoundError';
  }
}

/** A domain operation is not allowed in the current state (HTTP 409 with this detail). */
export class ConflictError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'ConflictError';
  }
}
