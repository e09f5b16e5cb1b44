/**
 * What a fixture given by a test or a file must be: its parts (`fixtureParts`), then each record
 * checked against its schema as it is stored (`recordChecker`), each error naming its path. Loaded
 * only when such a fixture is (a page starting on a built-in fixture never downloads it).
 */
import * as z from 'zod/mini';
import { Fixture } from '../schemas/fixture.js';
import { AgentEventRecord, ConversationRecord, SandboxRecord, StartTaskRecord } from '../schemas/records.js';
import { SandboxSpecInfo } from '../schemas/sandbox-spec.js';
import { formatPath } from '../schemas/issue-path.js';
import { fixtureError } from './errors.js';

function describeIssue(issue: z.core.$ZodIssue): string {
  return `${formatPath(issue.path)}: ${issue.message}`;
}

/** The parts of a fixture, checked record by record as they are stored. */
const FixtureShape = z.strictObject({
  relative_to: Fixture.shape.relative_to,
  sandbox_specs: z.array(z.unknown()).check(z.minLength(1, 'a fixture needs at least one sandbox spec (the first is the default)')),
  sandboxes: z._default(z.array(z.unknown()), []),
  conversations: z._default(z.array(z.unknown()), []),
  start_tasks: z._default(z.array(z.unknown()), []),
  events: z._default(z.array(z.unknown()), []),
  provider_tokens: Fixture.shape.provider_tokens,
  mcp_config: Fixture.shape.mcp_config,
  settings: Fixture.shape.settings,
  secrets: Fixture.shape.secrets,
  git: Fixture.shape.git,
});

/** A fixture's parts: the lists of records still to be checked one by one, the rest checked. */
export type FixtureParts = z.output<typeof FixtureShape>;

/** The schema of each kind of record in a fixture. */
const RECORD_SCHEMAS = {
  sandbox_specs: SandboxSpecInfo,
  sandboxes: SandboxRecord,
  conversations: ConversationRecord,
  start_tasks: StartTaskRecord,
  events: AgentEventRecord,
} as const;
/** The kinds of records a fixture lists. */
export type RecordKind = keyof typeof RECORD_SCHEMAS;
/** A checked record of `kind`. */
export type RecordOf<K extends RecordKind> = z.output<(typeof RECORD_SCHEMAS)[K]>;

/**
 * Records of fixtures validated before, by the object given: a fixture object kept by a test is
 * loaded again (a reset, a new tenant) without validating each record again (the records are
 * copied before they are stored, never changed).
 */
const VALIDATED = new WeakMap<object, { kind: RecordKind; data: unknown }>();

/** The parts of `input`; throws an `invalid_fixture` error naming the first bad paths. */
export function fixtureParts(input: unknown, source: string): FixtureParts {
  const shape = FixtureShape.safeParse(input);
  if (!shape.success) throw fixtureError(source, shape.error.issues.slice(0, 3).map(describeIssue).join('; '));
  return shape.data;
}

/** A checker of the records of the fixture `source`: each against its kind's schema, naming its path on failure (a record checked before is not checked again). */
export function recordChecker(source: string): <K extends RecordKind>(kind: K, index: number, value: unknown) => RecordOf<K> {
  return <K extends RecordKind>(kind: K, index: number, value: unknown): RecordOf<K> => {
    const known = typeof value === 'object' && value !== null ? VALIDATED.get(value) : undefined;
    if (known && known.kind === kind) return known.data as RecordOf<K>;
    const result = (RECORD_SCHEMAS[kind] as z.ZodMiniType).safeParse(value);
    if (!result.success) {
      throw fixtureError(source, result.error.issues.slice(0, 3).map((issue) => describeIssue({ ...issue, path: [kind, index, ...issue.path] })).join('; '));
    }
    if (typeof value === 'object' && value !== null) VALIDATED.set(value, { kind, data: result.data });
    return result.data as RecordOf<K>;
  };
}
