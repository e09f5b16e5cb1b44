/**
 * Schema facts: what a JSON Schema (as OpenAPI 3.0/3.1 writes it) says about each field of a
 * value, flattened to one entry per JSON path (`items[].status`), following `$ref`, `anyOf`,
 * `oneOf`, `allOf`, arrays and maps at every depth. Equivalent spellings read the same:
 * `anyOf [T, null]`, `type: [T, "null"]`, `nullable: true` and an `enum` holding null all mean
 * "T or null".
 */
import { FakehandsError } from '../domain/store/errors.js';

/** A JSON value read from a document. */
type Json = Record<string, unknown>;

/** Deepest field path followed (recursive schemas stop here). */
const MAX_DEPTH = 12;

/** What a schema says about one value. */
export interface ValueFacts {
  /** JSON types it may have, besides null, sorted (`integer`, `string`, `object`, ...); empty for "anything". */
  types: string[];
  /** Whether it may be null. */
  nullable: boolean;
  /** The values it is limited to (null left out), sorted; `null` for no limit. */
  enum: string[] | null;
  /** Bounds on a number: `>0`, `<=100`. */
  bounds: string[];
  /** Its fields, when it is an object. */
  properties: Map<string, ValueFacts>;
  /** Fields it requires, when it is an object. */
  required: Set<string>;
  /** Its items, when it is an array. */
  items: ValueFacts | null;
  /** Its values, when it is a map (`additionalProperties` with a schema). */
  values: ValueFacts | null;
}

/** Resolves local `$ref`s (`#/components/schemas/X`) in one document. */
export class RefResolver {
  readonly #document: Json;

  /** Resolves against `document`. */
  constructor(document: Json) {
    this.#document = document;
  }

  /** The schema `ref` points to; a pure alias cycle (A → B → A) or a dangling ref is an error. */
  resolve(schema: Json, where: string): Json {
    let current = schema;
    const seen: string[] = [];
    while (typeof current.$ref === 'string') {
      const ref = current.$ref;
      if (seen.includes(ref)) throw new FakehandsError('invalid_spec', `a $ref cycle at ${where}: ${[...seen, ref].join(' → ')}`);
      seen.push(ref);
      if (!ref.startsWith('#/'))
        throw new FakehandsError('invalid_spec', `an external $ref "${ref}" at ${where} (only local refs are followed)`);
      let target: unknown = this.#document;
      for (const part of ref.slice(2).split('/')) {
        const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
        target = target !== null && typeof target === 'object' ? (target as Json)[key] : undefined;
      }
      if (target === null || typeof target !== 'object')
        throw new FakehandsError('invalid_spec', `the $ref "${ref}" at ${where} points to nothing`);
      current = target as Json;
    }
    return current;
  }
}

/** Bounds in one order whatever their source: lower bounds first. */
function orderBounds(bounds: Iterable<string>): string[] {
  const rank = (b: string) => (b.startsWith('>') ? 0 : 1);
  return [...new Set(bounds)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function empty(): ValueFacts {
  return { types: [], nullable: false, enum: null, bounds: [], properties: new Map(), required: new Set(), items: null, values: null };
}

const asSchema = (value: unknown): Json | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;

/** Merges `b` into `a` as alternatives (anyOf/oneOf): either may hold. */
function union(a: ValueFacts, b: ValueFacts): ValueFacts {
  const merged = empty();
  // An alternative that may be anything makes the union anything.
  merged.types = a.types.length === 0 || b.types.length === 0 ? [] : [...new Set([...a.types, ...b.types])].sort();
  merged.nullable = a.nullable || b.nullable;
  // Limited only when every alternative is.
  merged.enum = a.enum && b.enum ? [...new Set([...a.enum, ...b.enum])].sort() : null;
  merged.bounds = orderBounds([...a.bounds, ...b.bounds]);
  merged.properties = mergeProperties(a.properties, b.properties, union);
  merged.required = new Set([...a.required].filter((r) => b.required.has(r) || !b.properties.size));
  if (!b.properties.size) for (const r of a.required) merged.required.add(r);
  if (!a.properties.size) for (const r of b.required) merged.required.add(r);
  merged.items = a.items && b.items ? union(a.items, b.items) : (a.items ?? b.items);
  merged.values = a.values && b.values ? union(a.values, b.values) : (a.values ?? b.values);
  return merged;
}

/** Merges `b` into `a` as both holding (allOf). */
function intersect(a: ValueFacts, b: ValueFacts): ValueFacts {
  const merged = empty();
  merged.types = a.types.length === 0 ? b.types : b.types.length === 0 ? a.types : a.types.filter((t) => b.types.includes(t));
  merged.nullable = a.nullable && b.nullable;
  merged.enum = a.enum && b.enum ? a.enum.filter((v) => b.enum!.includes(v)) : (a.enum ?? b.enum);
  merged.bounds = orderBounds([...a.bounds, ...b.bounds]);
  merged.properties = mergeProperties(a.properties, b.properties, intersect);
  merged.required = new Set([...a.required, ...b.required]);
  merged.items = a.items && b.items ? intersect(a.items, b.items) : (a.items ?? b.items);
  merged.values = a.values && b.values ? intersect(a.values, b.values) : (a.values ?? b.values);
  return merged;
}

function mergeProperties(
  a: Map<string, ValueFacts>,
  b: Map<string, ValueFacts>,
  merge: (x: ValueFacts, y: ValueFacts) => ValueFacts,
): Map<string, ValueFacts> {
  const out = new Map(a);
  for (const [name, facts] of b) out.set(name, out.has(name) ? merge(out.get(name)!, facts) : facts);
  return out;
}

const literal = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * What `schema` says about a value, at every depth.
 * @example
 * describeSchema({ anyOf: [{ type: 'string' }, { type: 'null' }] }, resolver, 'x') // types ['string'], nullable true
 */
export function describeSchema(input: unknown, resolver: RefResolver, where: string, depth = 0): ValueFacts {
  const raw = asSchema(input);
  if (!raw || depth > MAX_DEPTH) return empty();
  const schema = resolver.resolve(raw, where);
  let facts = empty();
  const type = schema.type;
  const types = Array.isArray(type) ? type.map(String) : typeof type === 'string' ? [type] : [];
  facts.nullable = types.includes('null') || schema.nullable === true;
  facts.types = types.filter((t) => t !== 'null').sort();
  const enumValues = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : null;
  if (enumValues) {
    if (enumValues.includes(null)) facts.nullable = true;
    facts.enum = enumValues
      .filter((v) => v !== null)
      .map(literal)
      .sort();
    if (facts.types.length === 0 && facts.enum.length > 0)
      facts.types = [
        ...new Set(
          enumValues
            .filter((v) => v !== null)
            .map((v) =>
              typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v === 'boolean' ? 'boolean' : 'string',
            ),
        ),
      ].sort();
    if (facts.enum.length === 0) facts.enum = null;
  }
  for (const [key, text] of [
    ['minimum', '>='],
    ['exclusiveMinimum', '>'],
    ['maximum', '<='],
    ['exclusiveMaximum', '<'],
  ] as const) {
    const bound = schema[key];
    // The safe-integer limits some generators write for any integer are no bound at all.
    if (typeof bound === 'number' && Math.abs(bound) !== Number.MAX_SAFE_INTEGER) facts.bounds.push(`${text}${bound}`);
  }
  const properties = asSchema(schema.properties);
  if (properties) {
    if (facts.types.length === 0) facts.types = ['object'];
    for (const [name, property] of Object.entries(properties))
      facts.properties.set(name, describeSchema(property, resolver, `${where}.${name}`, depth + 1));
    if (Array.isArray(schema.required)) facts.required = new Set(schema.required.map(String));
  }
  const additional = asSchema(schema.additionalProperties);
  if (additional && Object.keys(additional).length > 0) {
    if (facts.types.length === 0) facts.types = ['object'];
    facts.values = describeSchema(additional, resolver, `${where}{}`, depth + 1);
  }
  // `items: false` (a tuple's: nothing after its `prefixItems`) says nothing about an item.
  if (schema.items !== undefined && schema.items !== false) {
    if (facts.types.length === 0) facts.types = ['array'];
    facts.items = describeSchema(schema.items, resolver, `${where}[]`, depth + 1);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key];
    if (!Array.isArray(members)) continue;
    const described = members.map((m, i) => describeSchema(m, resolver, `${where}.${key}[${i}]`, depth));
    const nullOnly = (f: ValueFacts) => f.types.length === 0 && f.nullable && !f.enum;
    let combined: ValueFacts | null = null;
    let nullable = false;
    for (const member of described) {
      if (nullOnly(member)) nullable = true;
      else combined = combined ? union(combined, member) : member;
    }
    if (combined) facts = mergeOwn(facts, combined);
    facts.nullable ||= nullable || (combined?.nullable ?? false);
  }
  if (Array.isArray(schema.allOf)) {
    for (const [i, member] of schema.allOf.entries())
      facts = intersectOwn(facts, describeSchema(member, resolver, `${where}.allOf[${i}]`, depth));
  }
  return facts;
}

/** A schema's own facts with those of its anyOf/oneOf alternatives added. */
function mergeOwn(own: ValueFacts, alternatives: ValueFacts): ValueFacts {
  const hasOwn = own.types.length > 0 || own.properties.size > 0 || own.items !== null || own.enum !== null;
  if (!hasOwn)
    return {
      ...alternatives,
      nullable: own.nullable || alternatives.nullable,
      bounds: orderBounds([...own.bounds, ...alternatives.bounds]),
    };
  return intersect(own, alternatives);
}

function intersectOwn(own: ValueFacts, member: ValueFacts): ValueFacts {
  const hasOwn = own.types.length > 0 || own.properties.size > 0 || own.items !== null || own.enum !== null;
  if (!hasOwn) return { ...member, nullable: own.nullable || member.nullable };
  return intersect(own, member);
}

/** The facts of one field, at a JSON path. */
export interface FieldFacts {
  /** `string|null`, `integer`, `object`, `any`. */
  type: string;
  /** Allowed values, or null. */
  enum: string | null;
  /** Number bounds, or null. */
  bounds: string | null;
  /** Whether the enclosing object requires it (top-level value: true). */
  required: boolean;
}

/** Writes the type of a value as `string|null`. */
export function typeText(facts: ValueFacts): string {
  const types = facts.types.length === 0 ? ['any'] : facts.types;
  return [...types, ...(facts.nullable ? ['null'] : [])].join('|');
}

/**
 * Flattens a value's facts to one entry per JSON path: `''` for the value, `items[].status` for
 * a field of an array's items, `provider_tokens{}` for a map's values.
 */
export function flattenFields(facts: ValueFacts): Map<string, FieldFacts> {
  const out = new Map<string, FieldFacts>();
  const visit = (value: ValueFacts, path: string, required: boolean, depth: number) => {
    out.set(path, {
      type: typeText(value),
      enum: value.enum ? value.enum.join(', ') : null,
      bounds: value.bounds.length ? value.bounds.join(' ') : null,
      required,
    });
    if (depth > MAX_DEPTH) return;
    for (const [name, property] of value.properties) visit(property, path ? `${path}.${name}` : name, value.required.has(name), depth + 1);
    if (value.items) visit(value.items, `${path}[]`, true, depth + 1);
    if (value.values) visit(value.values, `${path}{}`, true, depth + 1);
  };
  visit(facts, '', true, 0);
  return out;
}
