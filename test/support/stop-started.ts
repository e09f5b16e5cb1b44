/**
 * vitest setup file of the 'shared-modules' project (vitest.config.ts): its files share modules, so
 * test/support/cli.ts's own `afterEach` is registered for the first file of a worker only; a setup
 * file runs for every file, so this one kills what each file's tests started, as in isolated files.
 */
import { afterEach } from 'vitest';
import { stopStarted } from './cli.js';

afterEach(stopStarted);
