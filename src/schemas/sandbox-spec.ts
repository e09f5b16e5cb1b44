import * as z from 'zod/mini';
import { DateTime } from './common.js';

/** Default working directory inside a sandbox. */
export const DEFAULT_WORKING_DIR = '/home/openhands/workspace';

/** A template for sandboxes, e.g. a container image preset (`SandboxSpecInfo`). */
export const SandboxSpecInfo = z.object({
  id: z.string().check(z.minLength(1)),
  command: z.nullable(z.array(z.string())),
  created_at: DateTime,
  initial_env: z.record(z.string(), z.string()),
  working_dir: z.string(),
});
export type SandboxSpecInfo = z.infer<typeof SandboxSpecInfo>;
