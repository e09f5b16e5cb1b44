import { z } from 'zod';
import { DateTime, SandboxStatus } from './common.js';

/** Names of the URLs a running sandbox exposes. */
export const ExposedUrlName = z.enum(['AGENT_SERVER', 'VSCODE', 'WORKER_1', 'WORKER_2']);

/** A URL a running sandbox exposes. */
export const ExposedUrl = z.object({ name: ExposedUrlName, url: z.string() });
export type ExposedUrl = z.infer<typeof ExposedUrl>;

/** A sandbox: an execution environment that powers conversations (`SandboxInfo`). */
export const SandboxInfo = z.object({
  id: z.string(),
  created_by_user_id: z.string().nullable(),
  sandbox_spec_id: z.string(),
  status: SandboxStatus,
  session_api_key: z.string().nullable(),
  exposed_urls: z.array(ExposedUrl).nullable(),
  created_at: DateTime,
});
export type SandboxInfo = z.infer<typeof SandboxInfo>;
