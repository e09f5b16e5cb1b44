/**
 * Test support: the README's recipes print fixed ports (the Playwright recipe's 3100, the agent
 * host's 8000), which a user may be running while `npm test` runs: a test runs a recipe on a free
 * port instead, and with `--agent-port 0` where the recipe leaves the agent host at its default.
 */
import { freePort } from '../../src/server/start.js';

/** A port free on 127.0.0.1 just now. */
export const freeLocalPort = (): Promise<number> => freePort('127.0.0.1', 0);

/** `text` (a recipe's file) with its `fixed` port replaced by `port`, and each `fakehands serve` given `--agent-port 0` unless it names one. */
export function onFreePorts(text: string, fixed: number, port: number): string {
  return text
    .replaceAll(String(fixed), String(port))
    .replace(/fakehands serve(?![^'"`\n]*--agent-port)/g, 'fakehands serve --agent-port 0');
}
