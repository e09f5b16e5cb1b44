/**
 * Two answers to the same step — the real server's and the fake's — turned into facts: the status,
 * and each key path of the body's shape (keys and JSON types, with ids, times and keys that are ids
 * normalised; the values of the vocabulary's own fields — `kind`, `source`, `status`, ... — kept,
 * since they are the behaviour). A fact agrees, differs, or differs as a declared difference says.
 */

/** A normalised JSON value: its shape. */
export type Shape = string | { readonly [key: string]: Shape } | readonly Shape[];

/** Fields whose values are behaviour, compared as they are (not only their type). */
const LITERAL_KEYS = new Set([
  'kind',
  'source',
  'status',
  'execution_status',
  'tool_name',
  'type',
  'role',
  'key',
  'sandbox_status',
  'command',
  'exit_code',
  'sort_order',
  'loc',
  'msg',
  'detail',
  'message',
]);

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const HEX_ID = /^[0-9a-f]{24,64}$/i;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

/** What kind of string a string is: `<id>`, `<datetime>`, or `string`. */
function stringClass(text: string): string {
  if (UUID.test(text) || HEX_ID.test(text)) return '<id>';
  if (DATETIME.test(text)) return '<datetime>';
  return 'string';
}

/** A key, normalised when it is an id (a map by conversation id, a map of usage ids ...). */
const keyOf = (key: string) => (UUID.test(key) || HEX_ID.test(key) ? '<id>' : key);

/** The shape of a JSON value (`literal`: its strings are compared as they are). */
export function shapeOf(value: unknown, literal = false): Shape {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  // JSON has one kind of number: Python writes a float 0.0 that reads back as 0, so integers are not told apart.
  if (typeof value === 'number') return literal ? `=${value}` : 'number';
  if (typeof value === 'string') return literal && stringClass(value) === 'string' ? `="${value}"` : stringClass(value);
  if (Array.isArray(value)) {
    const seen = new Map<string, Shape>();
    for (const item of value) {
      const shape = shapeOf(item, literal);
      seen.set(JSON.stringify(shape), shape);
    }
    return [...seen.keys()].sort().map((k) => seen.get(k)!);
  }
  if (typeof value === 'object') {
    const out: Record<string, Shape> = {};
    for (const key of Object.keys(value as object).sort()) {
      out[keyOf(key)] = shapeOf((value as Record<string, unknown>)[key], literal || LITERAL_KEYS.has(key));
    }
    return out;
  }
  return typeof value;
}

/** One fact: a path compared, and what each side had there. */
export interface Fact {
  /** `scenario › step › path` (`status` for the status). */
  readonly id: string;
  /** The real server's shape there (`absent`: it had none). */
  readonly real: string;
  /** The fake's shape there. */
  readonly fake: string;
  /** Whether the two agree. */
  readonly agree: boolean;
}

/** Every leaf path of a shape with its shape, as `path → JSON of the shape`. */
function leaves(shape: Shape, path: string, out: Map<string, string>): void {
  if (typeof shape === 'string') {
    out.set(path, shape);
    return;
  }
  if (Array.isArray(shape)) {
    if (shape.length === 0) out.set(path, '[]');
    // A list's items are compared as one: each shape found among them.
    const items = shape.filter((s) => typeof s !== 'string');
    const scalars = shape.filter((s): s is string => typeof s === 'string');
    if (scalars.length > 0) out.set(`${path}[]`, scalars.join('|'));
    for (const item of items) leaves(item, `${path}[]`, out);
    return;
  }
  const keys = Object.keys(shape);
  if (keys.length === 0) out.set(path, '{}');
  for (const key of keys) leaves((shape as Record<string, Shape>)[key]!, path === '' ? key : `${path}.${key}`, out);
}

/** The facts of one body: each leaf path of either side's shape. */
export function bodyFacts(prefix: string, real: unknown, fake: unknown): Fact[] {
  const a = new Map<string, string>();
  const b = new Map<string, string>();
  leaves(shapeOf(real), '', a);
  leaves(shapeOf(fake), '', b);
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  return paths.map((path) => {
    const r = a.get(path) ?? 'absent';
    const f = b.get(path) ?? 'absent';
    return { id: `${prefix} › ${path === '' ? '(body)' : path}`, real: r, fake: f, agree: r === f };
  });
}

/** The fact of one status. */
export const statusFact = (prefix: string, real: number, fake: number): Fact => ({
  id: `${prefix} › status`,
  real: String(real),
  fake: String(fake),
  agree: real === fake,
});

/** The facts of two sequences (of event names, say): one per position, and their lengths. */
export function sequenceFacts(prefix: string, real: readonly string[], fake: readonly string[]): Fact[] {
  const facts: Fact[] = [
    { id: `${prefix} › length`, real: String(real.length), fake: String(fake.length), agree: real.length === fake.length },
  ];
  for (let i = 0; i < Math.max(real.length, fake.length); i++) {
    const r = real[i] ?? 'absent';
    const f = fake[i] ?? 'absent';
    facts.push({ id: `${prefix} › [${i}]`, real: r, fake: f, agree: r === f });
  }
  return facts;
}

/** A state update of the LLM's statistics: published around each LLM call, in an order that races the others on the real server. */
const STATS = 'state:stats';

/**
 * The facts of two sequences of event names (`eventName`): without the statistics updates, position
 * by position, and whether each side published any.
 */
export function eventSequenceFacts(prefix: string, real: readonly string[], fake: readonly string[]): Fact[] {
  const facts = sequenceFacts(
    prefix,
    real.filter((name) => name !== STATS),
    fake.filter((name) => name !== STATS),
  );
  facts.push({
    id: `${prefix} › stats updates published`,
    real: String(real.includes(STATS)),
    fake: String(fake.includes(STATS)),
    agree: real.includes(STATS) === fake.includes(STATS),
  });
  return facts;
}

/**
 * An event's name in a sequence: kind, source and tool, or a state update's key (with the value of `execution_status`).
 * @example
 * eventName({ kind: 'ActionEvent', source: 'agent', tool_name: 'terminal' }) // 'ActionEvent:agent:terminal'
 */
export function eventName(event: Record<string, unknown>): string {
  if (event.kind === 'ConversationStateUpdateEvent') {
    if (event.key === 'execution_status') return `state:execution_status=${String(event.value)}`;
    if (event.key === 'full_state') return `state:full_state=${String((event.value as { execution_status?: string })?.execution_status)}`;
    return `state:${String(event.key)}`;
  }
  const tool = typeof event.tool_name === 'string' ? `:${event.tool_name}` : '';
  return `${String(event.kind)}:${String(event.source)}${tool}`;
}
