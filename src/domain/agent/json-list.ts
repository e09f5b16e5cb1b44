/** What a JSON text holds, read on its text before it is parsed (a bound told before the work it bounds). */

/**
 * Whether a JSON text is a list of more than `limit` items, read on its text (strings skipped, the
 * items of the outermost list counted by their commas) before anything is parsed.
 * @example
 * listLongerThan('[1, 2, 3]', 2) // true
 */
export function listLongerThan(text: string, limit: number): boolean {
  let at = 0;
  while (at < text.length && /\s/.test(text[at]!)) at++;
  if (text[at] !== '[') return false;
  let depth = 0;
  let items = 0;
  let empty = true;
  for (; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === 0x22) {
      // A string: to its closing quote, over escapes.
      for (at++; at < text.length && text.charCodeAt(at) !== 0x22; at++) if (text.charCodeAt(at) === 0x5c) at++;
      if (depth === 1) empty = false;
    } else if (c === 0x5b || c === 0x7b) {
      if (depth === 1) empty = false;
      depth++;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      if (depth === 0) break;
    } else if (c === 0x2c && depth === 1 && ++items >= limit) return true;
    else if (depth === 1 && c > 0x20) empty = false;
  }
  return !empty && items + 1 > limit;
}
