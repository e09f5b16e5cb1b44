/**
 * The bound on the agent server's `misc_settings` (the settings the frontend owns, opaque to the
 * server): a patch whose merge would hold more than `MAX_MISC_SETTINGS_VALUES` values or
 * `MAX_MISC_SETTINGS_CHARS` characters of JSON is refused with a 422 and changes nothing. The real
 * server (`persistence/models.py`, `PersistedSettings.update`) merges any amount; every read and
 * patch here copies the whole map, so 285,000 keys cost a second a request.
 */
import { invalid, type Refusal } from '../store/refusal.js';

/** Most values `misc_settings` may hold: maps, lists, their entries and items (counted as a request body's are). */
export const MAX_MISC_SETTINGS_VALUES = 10_000;
/** Most characters of JSON `misc_settings` may take (1 Mi). */
export const MAX_MISC_SETTINGS_CHARS = 1024 * 1024;

/** How many values `value` holds, itself included, counting no further than `limit + 1`. */
function valuesIn(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const next = stack.pop();
    count++;
    if (next === null || typeof next !== 'object') continue;
    for (const item of Array.isArray(next) ? next : Object.values(next)) stack.push(item);
  }
  return count;
}

/**
 * The 422 for merged `misc_settings` past a bound, in FastAPI's `detail` list at
 * `body.misc_settings_diff`, or null when it fits.
 * @example
 * const refused = miscSettingsTooLarge(merged); if (refused) return refused;
 */
export function miscSettingsTooLarge(merged: Record<string, unknown>): Refusal | null {
  const loc = ['body', 'misc_settings_diff'];
  // The map itself is not one of its values.
  const values = valuesIn(merged, MAX_MISC_SETTINGS_VALUES + 1) - 1;
  if (values > MAX_MISC_SETTINGS_VALUES)
    return invalid([
      {
        type: 'too_long',
        loc,
        msg: `misc_settings should have at most ${MAX_MISC_SETTINGS_VALUES} values (maps, lists, their entries and items) once merged`,
        input: {},
        ctx: { max_length: MAX_MISC_SETTINGS_VALUES },
      },
    ]);
  const chars = JSON.stringify(merged).length;
  if (chars > MAX_MISC_SETTINGS_CHARS)
    return invalid([
      {
        type: 'too_long',
        loc,
        msg: `misc_settings should take at most ${MAX_MISC_SETTINGS_CHARS} characters of JSON once merged, not ${chars}`,
        input: {},
        ctx: { max_length: MAX_MISC_SETTINGS_CHARS, actual_length: chars },
      },
    ]);
  return null;
}
