/**
 * Datetimes on the wire, written as pydantic writes them: `2025-11-03T09:00:00.123456Z`.
 * The stored form is this canonical one, so creation times sort as strings.
 */

/** The millisecond `formatDateTime` wrote last, and its text up to the milliseconds. */
let lastMs = Number.NaN;
let lastMillisText = '';
/** The second it wrote last (epoch seconds), and its text up to the seconds' dot (`YYYY-MM-DDTHH:MM:SS.`). */
let lastSecond = Number.NaN;
let lastSecondText = '';
/** 0 to 999 as three digits. */
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** The text of millisecond `ms` (a whole number) up to its milliseconds: `Date`'s ISO text once per second, the milliseconds joined to it. */
function millisText(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    const iso = new Date(second * 1000).toISOString();
    // A year of four digits (`YYYY-MM-DDTHH:MM:SS.sssZ`); any other ISO text is cut as it ever was.
    if (iso.length !== 24) return new Date(ms).toISOString().slice(0, 23);
    lastSecondText = iso.slice(0, 20);
    lastSecond = second;
  }
  return lastSecondText + THREE_DIGITS[ms - second * 1000]!;
}

/**
 * Formats epoch milliseconds plus extra microseconds (an integer 0–999) in the canonical form. A
 * fraction of a millisecond is dropped; microseconds that are not a whole number in range throw
 * (a time that could not be read back is never written).
 */
export function formatDateTime(ms: number, micros = 0): string {
  if (!Number.isInteger(micros) || micros < 0 || micros > 999)
    throw new RangeError(`Failed to format a datetime: ${micros} is not a whole number of microseconds from 0 to 999.`);
  // The stamps of one operation mostly fall in the same millisecond: its text is written once.
  if (ms !== lastMs) {
    // `Date` drops a fraction of a millisecond towards zero; a time it cannot hold throws as `toISOString` does.
    const whole = Math.trunc(ms);
    lastMillisText = Number.isFinite(whole) ? millisText(whole) : new Date(ms).toISOString().slice(0, 23);
    lastMs = ms;
  }
  // Joined, not concatenated: stored timestamps stay flat strings (a rope costs several objects).
  return [lastMillisText, THREE_DIGITS[micros]!, 'Z'].join('');
}

/** The canonical form: `YYYY-MM-DDTHH:MM:SS.ffffffZ`, parsed without a regular expression. */
const CANONICAL_LENGTH = 27;

/** Parses an ISO 8601 datetime (any offset, up to microseconds) to epoch microseconds; NaN when it is not one. */
export function parseDateTimeMicros(value: string): number {
  if (value.length === CANONICAL_LENGTH && value[26] === 'Z' && value[19] === '.' && value[10] === 'T') {
    const ms = Date.parse(`${value.slice(0, 23)}Z`);
    const micros = Number(value.slice(23, 26));
    if (Number.isFinite(ms) && Number.isInteger(micros)) return ms * 1000 + micros;
  }
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(?:\.(\d{1,6}))?(Z|z|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (!match) return Number.NaN;
  const fraction = (match[2] ?? '').padEnd(6, '0');
  const seconds = match[1]!.length === 16 ? `${match[1]}:00` : match[1];
  let offset = match[3] ?? 'Z';
  if (/^[+-]\d{4}$/.test(offset)) offset = `${offset.slice(0, 3)}:${offset.slice(3)}`;
  const ms = Date.parse(`${seconds}.${fraction.slice(0, 3)}${offset.toUpperCase()}`);
  return Number.isFinite(ms) ? ms * 1000 + Number(fraction.slice(3)) : Number.NaN;
}

/** Parses an ISO 8601 datetime to epoch milliseconds. */
export function parseDateTime(value: string): number {
  return Math.floor(parseDateTimeMicros(value) / 1000);
}

/** Whether `value` is already in the canonical form (checked without parsing). */
function isCanonical(value: string): boolean {
  return (
    value.length === CANONICAL_LENGTH &&
    value[26] === 'Z' &&
    value[19] === '.' &&
    value[10] === 'T' &&
    value[4] === '-' &&
    value[13] === ':'
  );
}

/** Rewrites any accepted ISO 8601 datetime in the canonical form. */
export function canonicalDateTime(value: string): string {
  if (isCanonical(value)) return value;
  const micros = parseDateTimeMicros(value);
  return formatDateTime(Math.floor(micros / 1000), ((micros % 1000) + 1000) % 1000);
}
