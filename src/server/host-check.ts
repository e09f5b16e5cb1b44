/**
 * The Host header check: only loopback names (and names given with `--allowed-host`) are served,
 * so a web page cannot reach the fake, and its control API, through DNS rebinding.
 */

/** Host names served by default. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** The name part of a Host header (`localhost:3000` → `localhost`, `[::1]:80` → `[::1]`). */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  return value.replace(/:\d*$/, '');
}

/**
 * Whether a request with this Host header may be served: a loopback name, a `127.x.x.x` address, or one of `allowed` (`*` allows any).
 * @example
 * hostAllowed('localhost:3000', []) // true
 */
export function hostAllowed(header: string | undefined, allowed: readonly string[]): boolean {
  if (header === undefined || header === '') return false;
  if (allowed.includes('*')) return true;
  const name = hostName(header);
  return LOOPBACK_HOSTS.has(name) || /^127(\.\d{1,3}){3}$/.test(name) || allowed.some((host) => host.toLowerCase() === name);
}
