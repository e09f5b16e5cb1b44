/**
 * The one error class of fakehands. Every failure has a `code` that says what kind of failure it
 * is; the HTTP layer maps domain codes to statuses (`http/status.ts`) and the CLI maps
 * configuration codes to its exit code. Modelled on @msw/data's `OperationError` + codes.
 */

/** Why a request is refused (a `Refusal`); each surface maps a reason to its status. */
export type RefusalReason =
  /** The real server refuses the request with 400 (an id too long), or it names something the state cannot hold (an unknown parent). */
  | 'bad_request'
  /** The key is missing or wrong (401). */
  | 'unauthorized'
  /** The key is another's (403). */
  | 'forbidden'
  /** Something named does not exist, or no route has this path (404). */
  | 'not_found'
  /** The path exists, the method does not (405). */
  | 'method_not_allowed'
  /** Not allowed in the current state (409). */
  | 'conflict'
  /** Gone for good (410). */
  | 'gone'
  /** The request's input is not valid (422). */
  | 'invalid'
  /** Too many of something queued (429). */
  | 'too_many'
  /** The real server fails the same way (500 with its message: a file written over a directory). */
  | 'internal'
  /** The agent server behind it answered an error (502). */
  | 'bad_gateway'
  /** The sandbox cannot take it now (503). */
  | 'unavailable'
  /** The agent server did not answer in time (504). */
  | 'gateway_timeout'
  /** The store is at its limit of records or bytes (507). */
  | 'storage_full';

/** What went wrong, as a stable code a program can switch on: a refusal's reason, or one of these. */
export type FakehandsErrorCode =
  | RefusalReason
  /** `createFake` or a CLI flag got a bad option. */
  | 'invalid_options'
  /** A fixture (file, object or function) cannot be loaded. */
  | 'invalid_fixture'
  /** The `--state-file` exists but cannot be used. */
  | 'invalid_state_file'
  /** A fault spec is not valid. */
  | 'invalid_fault'
  /** The clock was asked to go backwards or to an invalid instant. */
  | 'invalid_time'
  /** The fake answered with a body that does not match its own schema (checkResponses). */
  | 'contract_violation'
  /** The command line is wrong. */
  | 'usage'
  /** An OpenAPI document given to `fakehands drift` cannot be read or is not OpenAPI 3.x. */
  | 'invalid_spec'
  /** A provider to verify does not answer. */
  | 'unreachable'
  /** An optional peer dependency a command needs is not installed (Pact, for `fakehands verify`). */
  | 'missing_dependency';

/** Codes that mean "the configuration is wrong": the CLI exits with 2 on these. */
export const CONFIGURATION_ERROR_CODES: ReadonlySet<FakehandsErrorCode> = new Set([
  'invalid_options',
  'invalid_fixture',
  'invalid_state_file',
  'invalid_fault',
  'invalid_time',
  'usage',
  'invalid_spec',
  'unreachable',
  'missing_dependency',
]);

/**
 * An error of fakehands, with a code and a message that says what failed, why, and what to do.
 * @example
 * if (error instanceof FakehandsError && error.code === 'invalid_fixture') console.error(error.message)
 */
export class FakehandsError extends Error {
  /** What kind of failure this is. */
  readonly code: FakehandsErrorCode;

  /** Creates an error of kind `code`. */
  constructor(code: FakehandsErrorCode, message: string) {
    super(message);
    this.name = 'FakehandsError';
    this.code = code;
  }
}

/** What a fixture error's message advises, in the library's words (the command says it with its flag). */
export const FIXTURE_ADVICE = 'Fix the fixture, or pass fixture: "default" or "empty".';

/** The message of a fixture that cannot be loaded: names the source and the bad path. */
export const fixtureError = (source: string, problem: string): FakehandsError =>
  new FakehandsError('invalid_fixture', `Failed to load the fixture ${source}: ${problem}. ${FIXTURE_ADVICE}`);
