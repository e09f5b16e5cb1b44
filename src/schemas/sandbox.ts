import * as z from 'zod/mini';
import { DateTime, SandboxStatus } from './common.js';

/** Names of the URLs a running sandbox exposes (the real schema types the name as a plain string). */
export const EXPOSED_URL_NAMES = ['AGENT_SERVER', 'VSCODE', 'WORKER_1', 'WORKER_2'] as const;

/** A URL a running sandbox exposes, and its port. */
export const ExposedUrl = z.object({ name: z.string(), url: z.string(), port: z.int() });
export type ExposedUrl = z.infer<typeof ExposedUrl>;

/** A sandbox: an execution environment that powers conversations (`SandboxInfo`). */
export const SandboxInfo = z.object({
  id: z.string(),
  created_by_user_id: z.nullable(z.string()),
  sandbox_spec_id: z.string(),
  status: SandboxStatus,
  session_api_key: z.nullable(z.string()),
  exposed_urls: z.nullable(z.array(ExposedUrl)),
  created_at: DateTime,
  /** The last scheduling reason from the runtime, when a sandbox is stuck or failed. */
  status_detail: z.nullable(z.string()),
});
export type SandboxInfo = z.infer<typeof SandboxInfo>;
