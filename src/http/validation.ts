/**
 * Turns zod issues into the pydantic v2 errors FastAPI answers with: the right `type`, `loc`
 * (starting with `body`, `query` or `path`, list indexes as integers), `msg`, `input` and `ctx`.
 */
import type * as z from 'zod/mini';
import type { PydanticErrorParams } from '../schemas/helpers.js';
import { UUID_TYPE_MESSAGE } from '../schemas/common.js';
import { redactAtLocation } from '../domain/store/redact.js';
import type { ValidationErrorItem } from '../schemas/errors.js';

/** Where a request value comes from: the first element of `loc`. */
export type Location = 'body' | 'query' | 'path' | 'header';

/** Writes values the way pydantic lists them in enum messages: `'a', 'b' or 'c'`. */
export function expectedList(values: readonly unknown[]): string {
  const quoted = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)));
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** The value found at `path` inside `root`, or `undefined`. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * One 422 item. FastAPI echoes the problem's input; here a token or key never is (one sent in
 * the wrong shape, or sitting next to the field in error), the one deliberate difference.
 */
function item(
  type: string,
  loc: ValidationErrorItem['loc'],
  msg: string,
  input: unknown,
  ctx?: Record<string, unknown>,
): ValidationErrorItem {
  const shown = redactAtLocation(input, loc);
  return ctx ? { type, loc, msg, input: shown, ctx } : { type, loc, msg, input: shown };
}

function invalidType(issue: z.core.$ZodIssueInvalidType, loc: ValidationErrorItem['loc'], input: unknown): ValidationErrorItem {
  switch (issue.expected) {
    case 'string':
      // A UUID field (`schemas/common.ts`, `Uuid`) names its own type error.
      if (issue.message === UUID_TYPE_MESSAGE) return item('uuid_type', loc, UUID_TYPE_MESSAGE, input);
      return item('string_type', loc, 'Input should be a valid string', input);
    case 'int':
    case 'number':
      if (typeof input === 'string')
        return item('int_parsing', loc, 'Input should be a valid integer, unable to parse string as an integer', input);
      if (typeof input === 'number' && !Number.isInteger(input))
        return item('int_from_float', loc, 'Input should be a valid integer, got a number with a fractional part', input);
      return item('int_type', loc, 'Input should be a valid integer', input);
    case 'boolean':
      if (typeof input === 'string' || typeof input === 'number')
        return item('bool_parsing', loc, 'Input should be a valid boolean, unable to interpret input', input);
      return item('bool_type', loc, 'Input should be a valid boolean', input);
    case 'array':
      return item('list_type', loc, 'Input should be a valid list', input);
    case 'record':
      return item('dict_type', loc, 'Input should be a valid dictionary', input);
    case 'object':
      return item('model_attributes_type', loc, 'Input should be a valid dictionary or object to extract fields from', input);
    default:
      return item(`${issue.expected}_type`, loc, `Input should be a valid ${issue.expected}`, input);
  }
}

function sizeIssue(
  issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig,
  loc: ValidationErrorItem['loc'],
  input: unknown,
): ValidationErrorItem {
  const small = issue.code === 'too_small';
  const limit = Number(small ? (issue as z.core.$ZodIssueTooSmall).minimum : (issue as z.core.$ZodIssueTooBig).maximum);
  if (issue.origin === 'array') {
    const actual = Array.isArray(input) ? input.length : 0;
    return small
      ? item('too_short', loc, `List should have at least ${limit} item${limit === 1 ? '' : 's'} after validation, not ${actual}`, input, {
          field_type: 'List',
          min_length: limit,
          actual_length: actual,
        })
      : item('too_long', loc, `List should have at most ${limit} item${limit === 1 ? '' : 's'} after validation, not ${actual}`, input, {
          field_type: 'List',
          max_length: limit,
          actual_length: actual,
        });
  }
  if (issue.origin === 'string') {
    return small
      ? item('string_too_short', loc, `String should have at least ${limit} character${limit === 1 ? '' : 's'}`, input, {
          min_length: limit,
        })
      : item('string_too_long', loc, `String should have at most ${limit} character${limit === 1 ? '' : 's'}`, input, {
          max_length: limit,
        });
  }
  if (small) {
    return issue.inclusive
      ? item('greater_than_equal', loc, `Input should be greater than or equal to ${limit}`, input, { ge: limit })
      : item('greater_than', loc, `Input should be greater than ${limit}`, input, { gt: limit });
  }
  return issue.inclusive
    ? item('less_than_equal', loc, `Input should be less than or equal to ${limit}`, input, { le: limit })
    : item('less_than', loc, `Input should be less than ${limit}`, input, { lt: limit });
}

/**
 * The pydantic errors for the zod issues of validating `root`, found at `location`.
 * Parse with `reportInput: true` so each issue carries its input.
 */
export function toValidationErrors(issues: readonly z.core.$ZodIssue[], root: unknown, location: Location): ValidationErrorItem[] {
  const errors: ValidationErrorItem[] = [];
  for (const issue of issues) {
    const loc: ValidationErrorItem['loc'] = [location, ...issue.path.map((key) => (typeof key === 'number' ? key : String(key)))];
    // pydantic reports what was sent (the query string "0"), not a value after coercion.
    const sent = valueAt(root, issue.path);
    const input = sent !== undefined ? sent : 'input' in issue ? issue.input : undefined;
    const pydantic = (issue as { params?: Partial<PydanticErrorParams> }).params?.pydantic;
    if (pydantic) {
      errors.push(item(pydantic.type, loc, pydantic.msg, 'input' in pydantic ? pydantic.input : input, pydantic.ctx));
      continue;
    }
    if (input === undefined && issue.code !== 'unrecognized_keys') {
      // An absent field, whatever its type: pydantic reports the object it is missing from.
      const parent = location === 'body' ? valueAt(root, issue.path.slice(0, -1)) : null;
      errors.push(item('missing', loc, 'Field required', parent ?? null));
      continue;
    }
    switch (issue.code) {
      case 'invalid_type':
        errors.push(invalidType(issue, loc, input));
        break;
      case 'invalid_value': {
        const expected = expectedList(issue.values);
        errors.push(
          issue.values.length === 1
            ? item('literal_error', loc, `Input should be ${expected}`, input, { expected })
            : item('enum', loc, `Input should be ${expected}`, input, { expected }),
        );
        break;
      }
      case 'unrecognized_keys': {
        const container = valueAt(root, issue.path) as Record<string, unknown> | undefined;
        for (const key of issue.keys) {
          errors.push(item('extra_forbidden', [...loc, key], 'Extra inputs are not permitted', container?.[key]));
        }
        break;
      }
      case 'too_small':
      case 'too_big':
        errors.push(sizeIssue(issue, loc, input));
        break;
      case 'invalid_format':
        if (issue.format === 'regex' && 'pattern' in issue) {
          const pattern = String(issue.pattern).replace(/^\/|\/[a-z]*$/g, '');
          errors.push(item('string_pattern_mismatch', loc, `String should match pattern '${pattern}'`, input, { pattern }));
          break;
        }
        errors.push(item('value_error', loc, `Value error, ${issue.message}`, input, { error: {} }));
        break;
      default:
        errors.push(item('value_error', loc, `Value error, ${issue.message}`, input, { error: {} }));
    }
  }
  return errors;
}
