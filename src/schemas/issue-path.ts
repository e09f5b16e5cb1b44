/** How fakehands names the place of a problem in a value, in its own error messages. */

/**
 * Writes a zod issue path as `sandboxes[3].status` (`(root)` for the value itself).
 * @example
 * formatPath(['sandboxes', 3, 'status']) // 'sandboxes[3].status'
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  return out || '(root)';
}
