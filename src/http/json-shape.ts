/**
 * A JSON body's shape, read before it is parsed: how deep it nests and how many values it holds,
 * so that validation does bounded work on every body (see `parse.ts`). Apart from
 * `python-json.ts` (the error Python's decoder reports), which only a malformed body needs.
 */

/** Deepest nesting a request body may have (Python's json module gives up near its recursion limit of 1000). */
export const MAX_JSON_DEPTH = 512;

/**
 * The shape of a JSON text in one pass, skipping strings, stopping as soon as it is too much:
 * nested deeper than `depthLimit` (with where), or holding more than `valueLimit` values (lists and
 * maps, and their items and entries, counted by their brackets and separators).
 */
export function scanJsonShape(
  text: string,
  depthLimit: number,
  valueLimit: number,
): { kind: 'ok' } | { kind: 'too_deep'; at: number } | { kind: 'too_many_values' } {
  // Each bracket or separator is a character: a text this short can neither nest nor hold too much (a create's body; no scan).
  if (text.length <= depthLimit && text.length < valueLimit) return SHAPE_OK;
  let depth = 0;
  let values = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote at once (`indexOf`, not a character at a time: a 1 MB string
      // was most of a 1 MB body's scan), the first quote after an even run of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end > 0 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end < 0) break;
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > depthLimit) return { kind: 'too_deep', at: Array.from(text.slice(0, i)).length };
      if (++values > valueLimit) return { kind: 'too_many_values' };
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    } else if (c === 0x2c) {
      if (++values > valueLimit) return { kind: 'too_many_values' };
    }
  }
  return SHAPE_OK;
}

/** Whether the quote at `at` is escaped: an odd run of backslashes before it. */
function escaped(text: string, at: number): boolean {
  let run = 0;
  while (text.charCodeAt(at - 1 - run) === 0x5c) run++;
  return run % 2 === 1;
}

/** The shape of a text within the limits. */
const SHAPE_OK: { kind: 'ok' } = Object.freeze({ kind: 'ok' });
