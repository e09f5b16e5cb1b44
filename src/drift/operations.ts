/**
 * Operation facts: everything `fakehands drift` compares about one operation of an OpenAPI
 * document, as a flat map from a fact's location (`query limit`, `request initial_message.role`,
 * `response items[].status`, `status 422`) to its value. Two documents agree on a fact when the
 * values are equal.
 */
import { FakehandsError } from '../domain/store/errors.js';
import { RefResolver, describeSchema, flattenFields, typeText } from './schema-facts.js';

type Json = Record<string, unknown>;

/** HTTP methods an OpenAPI path item may hold. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One fact: its location in the operation, the aspect, and its value. */
export interface Fact {
  /** Where: `query limit`, `request title`, `response items[].status`, `status 422`. */
  location: string;
  /** What about it: `type`, `required`, `enum`, `bounds`, `declared`. */
  aspect: 'type' | 'required' | 'enum' | 'bounds' | 'declared';
  /** Its value, as text. */
  value: string;
}

/** The facts of one operation. */
export interface OperationFacts {
  /** `GET /api/v1/sandboxes/search`, as the document spells the path. */
  name: string;
  /** The operation's key across documents: method and path with parameter names left out. */
  key: string;
  /** Facts by `location aspect`. */
  facts: Map<string, Fact>;
}

/** The key of an operation, the same however its path parameters are named. */
export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;
}

const asObject = (value: unknown): Json | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;

function add(facts: Map<string, Fact>, location: string, aspect: Fact['aspect'], value: string | null): void {
  if (value !== null) facts.set(`${location} ${aspect}`, { location, aspect, value });
}

/** The JSON schema of a request or response body, or null when it has no JSON content. */
function jsonSchemaOf(body: Json | null): unknown {
  const content = asObject(body?.content);
  if (!content) return null;
  const json =
    asObject(content['application/json']) ??
    Object.entries(content)
      .map(([type, media]) => (/json/.test(type) ? asObject(media) : null))
      .find(Boolean) ??
    null;
  return json ? (json.schema ?? {}) : null;
}

function parameterFacts(facts: Map<string, Fact>, parameters: unknown[], resolver: RefResolver, where: string): void {
  for (const [i, raw] of parameters.entries()) {
    const parameter = resolver.resolve(asObject(raw) ?? {}, `${where}.parameters[${i}]`);
    const place = String(parameter.in);
    if (place !== 'query' && place !== 'path') continue;
    const location = `${place} ${String(parameter.name)}`;
    const value = describeSchema(parameter.schema, resolver, `${where} ${location}`);
    // An optional query parameter cannot be sent as null: `anyOf [T, null]` is just "optional T".
    add(facts, location, 'type', typeText({ ...value, nullable: false }));
    add(facts, location, 'required', String(parameter.required === true));
    add(facts, location, 'enum', value.enum ? value.enum.join(', ') : null);
    add(facts, location, 'bounds', value.bounds.length ? value.bounds.join(' ') : null);
  }
}

function bodyFacts(facts: Map<string, Fact>, prefix: 'request' | 'response', schema: unknown, resolver: RefResolver, where: string): void {
  const fields = flattenFields(describeSchema(schema, resolver, `${where} ${prefix}`));
  for (const [path, field] of fields) {
    const location = path ? `${prefix} ${path}` : prefix;
    add(facts, location, 'type', field.type);
    add(facts, location, 'enum', field.enum);
    // FastAPI marks defaulted response fields optional although they are always sent: "required" is compared on requests only.
    if (prefix === 'request' && path) add(facts, location, 'required', String(field.required));
  }
}

/**
 * The facts of every operation of an OpenAPI 3.x document whose path `include` accepts.
 * Throws `invalid_spec` for a document that is not OpenAPI 3.x or has a broken `$ref`.
 * @example
 * const operations = operationFacts(document, (path) => path.startsWith('/api/v1/'))
 */
export function operationFacts(document: unknown, include: (path: string) => boolean = () => true): Map<string, OperationFacts> {
  const doc = asObject(document);
  if (!doc) throw new FakehandsError('invalid_spec', 'not a JSON object');
  if (typeof doc.openapi !== 'string' || !/^3\.\d+(\.\d+)?/.test(doc.openapi)) {
    throw new FakehandsError(
      'invalid_spec',
      `not an OpenAPI 3.x document (its "openapi" field is ${JSON.stringify(doc.openapi ?? null)}${doc.swagger ? '; Swagger 2.0 is not supported' : ''})`,
    );
  }
  const paths = asObject(doc.paths);
  if (!paths) throw new FakehandsError('invalid_spec', 'an OpenAPI document without a "paths" object');
  const resolver = new RefResolver(doc);
  const out = new Map<string, OperationFacts>();
  for (const [path, rawItem] of Object.entries(paths)) {
    if (!include(path)) continue;
    const item = asObject(rawItem) ?? {};
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const operation = asObject(item[method]);
      if (!operation) continue;
      const name = `${method.toUpperCase()} ${path}`;
      const facts = new Map<string, Fact>();
      parameterFacts(facts, [...shared, ...(Array.isArray(operation.parameters) ? operation.parameters : [])], resolver, name);
      const requestBody = operation.requestBody ? resolver.resolve(asObject(operation.requestBody) ?? {}, `${name} requestBody`) : null;
      const requestSchema = jsonSchemaOf(requestBody);
      if (requestSchema !== null) {
        add(facts, 'request', 'required', String(requestBody?.required === true));
        bodyFacts(facts, 'request', requestSchema, resolver, name);
      }
      const responses = asObject(operation.responses) ?? {};
      for (const [status, rawResponse] of Object.entries(responses)) {
        add(facts, `status ${status}`, 'declared', 'true');
        if (!/^2\d\d$/.test(status)) continue;
        const response = resolver.resolve(asObject(rawResponse) ?? {}, `${name} response ${status}`);
        const schema = jsonSchemaOf(response);
        if (schema !== null) bodyFacts(facts, 'response', schema, resolver, name);
      }
      out.set(operationKey(method, path), { name, key: operationKey(method, path), facts });
    }
  }
  return out;
}
