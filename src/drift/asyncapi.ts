/**
 * `fakehands drift --asyncapi A B`: compares two AsyncAPI 3 documents of the agent server's sockets
 * (the fake's `/asyncapi.json` in two dialects, or the fake's and a provider's) kind by kind: the
 * schemas under `components.schemas` (event kinds, tools' actions and observations, client frames).
 * A kind only in B whose fields are those of a kind only in A is a rename, not a removal and an
 * addition. Fields compared: present, required, type, const/enum; `$ref`s to renamed kinds are
 * followed by their new name, so a rename is reported once.
 */
import { FakehandsError } from '../domain/store/errors.js';
import { loadDocument } from './load.js';

type JsonSchema = Record<string, unknown>;

/** One field that differs between a kind's schemas. */
export interface FieldChange {
  /** The kind. */
  kind: string;
  /** The field's path inside the kind (`action`, `llm_message.role`). */
  field: string;
  /** What changed, in words (`removed`, `added`, `type string → integer`, `now required`). */
  change: string;
}

/** The differences between two AsyncAPI documents. */
export interface AsyncApiDrift {
  /** Kinds only in B. */
  added: string[];
  /** Kinds only in A. */
  removed: string[];
  /** Kinds of A that B names otherwise (same fields). */
  renamed: { from: string; to: string }[];
  /** Fields that differ in kinds both have. */
  changed: FieldChange[];
}

const COMPONENT = '#/components/schemas/';

/** The named schemas of an AsyncAPI document; an invalid_spec error when it is not one. */
function kindsOf(document: unknown, source: string): Record<string, JsonSchema> {
  const doc = document as { asyncapi?: unknown; components?: { schemas?: Record<string, JsonSchema> } } | null;
  if (typeof doc?.asyncapi !== 'string')
    throw new FakehandsError('invalid_spec', `${source} is not an AsyncAPI document (no "asyncapi" version)`);
  return doc.components?.schemas ?? {};
}

/** A schema's fields, flattened: `path → description of its type` (refs by the name `rename` gives them). */
function fieldsOf(schema: unknown, rename: (kind: string) => string, prefix = '', out = new Map<string, string>()): Map<string, string> {
  const s = (schema ?? {}) as JsonSchema;
  const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s.required ?? []) as string[]);
  for (const [name, property] of Object.entries(properties)) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.set(path, `${describeType(property, rename)}${required.has(name) ? ' (required)' : ''}`);
    if (property.properties) fieldsOf(property, rename, path, out);
  }
  return out;
}

/** A property's type in words: its type, const, enum, or the kinds it refers to. */
function describeType(property: JsonSchema, rename: (kind: string) => string): string {
  if (typeof property.$ref === 'string') return rename(property.$ref.replace(COMPONENT, ''));
  const alternatives = (property.anyOf ?? property.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return alternatives.map((a) => describeType(a, rename)).join(' | ');
  if ('const' in property) return `${JSON.stringify(property.const)}`;
  if (Array.isArray(property.enum)) return `enum ${JSON.stringify(property.enum)}`;
  if (property.type === 'array') return `array of ${describeType((property.items ?? {}) as JsonSchema, rename)}`;
  return Array.isArray(property.type) ? property.type.join(' | ') : String(property.type ?? 'any');
}

/** The fields of a kind apart from its `kind` constant: what makes two names one kind. */
const signature = (schema: JsonSchema) => JSON.stringify([...fieldsOf(schema, (k) => k)].filter(([path]) => path !== 'kind').sort());

/**
 * Compares AsyncAPI documents `a` and `b`, kind by kind.
 * @example
 * compareAsyncApi(nov2025, newest).renamed // [{ from: 'ExecuteBashAction', to: 'TerminalAction' }, ...]
 */
export function compareAsyncApi(a: unknown, b: unknown): AsyncApiDrift {
  const left = kindsOf(a, 'A');
  const right = kindsOf(b, 'B');
  const onlyLeft = Object.keys(left).filter((k) => !(k in right));
  const onlyRight = Object.keys(right).filter((k) => !(k in left));
  const renamed: { from: string; to: string }[] = [];
  for (const from of onlyLeft) {
    const to = onlyRight.find(
      (candidate) => !renamed.some((r) => r.to === candidate) && signature(left[from]!) === signature(right[candidate]!),
    );
    if (to) renamed.push({ from, to });
  }
  const renames = new Map(renamed.map((r) => [r.from, r.to]));
  const rename = (kind: string) => renames.get(kind) ?? kind;
  const changed: FieldChange[] = [];
  for (const kind of Object.keys(left).filter((k) => k in right)) {
    const before = fieldsOf(left[kind], rename);
    const after = fieldsOf(right[kind], (k) => k);
    for (const [field, type] of before) {
      const now = after.get(field);
      if (now === undefined) changed.push({ kind, field, change: 'removed' });
      else if (now !== type) changed.push({ kind, field, change: `${type} → ${now}` });
    }
    for (const [field, type] of after) if (!before.has(field)) changed.push({ kind, field, change: `added: ${type}` });
  }
  return {
    added: onlyRight.filter((k) => !renamed.some((r) => r.to === k)),
    removed: onlyLeft.filter((k) => !renames.has(k)),
    renamed,
    changed,
  };
}

/** The report of `compareAsyncApi`, one line per difference, the counts last. */
export function formatAsyncApiDrift(drift: AsyncApiDrift, a: string, b: string): string[] {
  const lines = [`AsyncAPI drift: ${a} → ${b}`];
  for (const r of drift.renamed) lines.push(`  renamed: ${r.from} → ${r.to}`);
  for (const kind of drift.removed) lines.push(`  removed: ${kind}`);
  for (const kind of drift.added) lines.push(`  added: ${kind}`);
  for (const c of drift.changed) lines.push(`  changed: ${c.kind}.${c.field}: ${c.change}`);
  lines.push(
    `kinds renamed: ${drift.renamed.length}; removed: ${drift.removed.length}; added: ${drift.added.length}; fields changed: ${drift.changed.length}`,
  );
  return lines;
}

/**
 * Runs `fakehands drift --asyncapi A B [--json]` (A and B: files or URLs); resolves with the exit
 * code: 0 the same, 1 different.
 */
export async function runAsyncApiDrift(argv: readonly string[], write: (text: string) => void): Promise<number> {
  const json = argv.includes('--json');
  const sources = argv.filter((arg) => arg !== '--asyncapi' && arg !== '--json');
  const unknown = sources.find((arg) => arg.startsWith('--'));
  if (unknown) throw new FakehandsError('usage', `unknown option ${unknown} with --asyncapi (see fakehands drift --help)`);
  if (sources.length !== 2) throw new FakehandsError('usage', 'drift --asyncapi needs two documents: --asyncapi A B (files or URLs)');
  const [a, b] = sources as [string, string];
  const drift = compareAsyncApi(await loadDocument(a), await loadDocument(b));
  write(json ? `${JSON.stringify(drift, null, 2)}\n` : `${formatAsyncApiDrift(drift, a, b).join('\n')}\n`);
  return drift.added.length + drift.removed.length + drift.renamed.length + drift.changed.length === 0 ? 0 : 1;
}
