/**
 * A datetime in a query string, parsed as pydantic does: the app server's and the agent server's
 * event searches (`timestamp__gte`, `timestamp__lt`) and the SaaS routes read it alike.
 */
import * as z from 'zod/mini';
import { NEVER } from 'zod/v4/core';
import type { PydanticErrorParams } from './helpers.js';
import { canonicalDateTime, formatDateTime, parseDateTimeMicros } from './datetime.js';

function pydanticIssue(type: string, msg: string, ctx?: Record<string, unknown>): PydanticErrorParams {
  return { pydantic: ctx ? { type, msg, ctx } : { type, msg } };
}

/** The first and last instants a datetime can be (years 1 to 9999, as Python's datetime), in epoch milliseconds. */
const MIN_DATETIME_MS = Date.parse('0001-01-01T00:00:00Z');
const MAX_DATETIME_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** A datetime query parameter, parsed as pydantic does (ISO 8601, a date, or Unix seconds, within years 1 to 9999). */
export const QueryDateTime = z.pipe(
  z.string(),
  z.transform((value, ctx) => {
    let micros = Number.NaN;
    if (/^\d+(\.\d+)?$/.test(value)) micros = Math.round(Number(value) * 1e6);
    else if (/^\d{4}-\d{2}-\d{2}$/.test(value)) micros = Date.parse(`${value}T00:00:00Z`) * 1000;
    else micros = parseDateTimeMicros(value.replace(' ', 'T'));
    const ms = Math.floor(micros / 1000);
    const outOfRange = Number.isFinite(micros) && (ms < MIN_DATETIME_MS || ms > MAX_DATETIME_MS);
    if (!Number.isFinite(micros) || outOfRange) {
      const error = outOfRange
        ? /^\d+(\.\d+)?$/.test(value)
          ? 'dates after 9999 are not supported as unix timestamps'
          : 'year is out of range'
        : value.length < 10
          ? 'input is too short'
          : /^\d{4}/.test(value)
            ? 'invalid datetime separator, expected `T`, `t`, `_` or space'
            : 'invalid character in year';
      ctx.issues.push({
        code: 'custom',
        message: error,
        input: value,
        path: [],
        params: pydanticIssue('datetime_from_date_parsing', `Input should be a valid datetime or date, ${error}`, { error }),
      });
      return NEVER;
    }
    return canonicalDateTime(formatDateTime(Math.floor(micros / 1000), ((micros % 1000) + 1000) % 1000));
  }),
);
