import { z } from 'zod';

/** Largest page a search endpoint returns, and the default page size. */
export const MAX_PAGE_LIMIT = 100;
/** Most ids a batch get accepts. */
export const MAX_BATCH_IDS = 100;

/**
 * Attaches the exact pydantic v2 error (type, msg, ctx) a custom check reports,
 * so that the HTTP layer can answer with the real service's 422 item.
 */
export interface PydanticErrorParams {
  pydantic: { type: string; msg: string; ctx?: Record<string, unknown> };
}

/** Git provider of a repository (`ProviderType`). */
export const ProviderType = z.enum(['github', 'gitlab', 'bitbucket', 'enterprise_sso']);
export type ProviderType = z.infer<typeof ProviderType>;

/** Sandbox lifecycle status as the real service reports it. */
export const SandboxStatus = z.enum(['STARTING', 'RUNNING', 'PAUSED', 'ERROR', 'MISSING']);
export type SandboxStatus = z.infer<typeof SandboxStatus>;

/** Legacy conversation status, derived from the sandbox that powers the conversation. */
export const ConversationStatus = z.enum(['STARTING', 'RUNNING', 'STOPPED']);
export type ConversationStatus = z.infer<typeof ConversationStatus>;

/** What started a conversation. */
export const ConversationTrigger = z.enum([
  'resolver', 'gui', 'suggested_task', 'openhands_api', 'slack',
  'microagent_management', 'jira', 'jira_dc', 'linear', 'bitbucket',
]);
export type ConversationTrigger = z.infer<typeof ConversationTrigger>;

/** State of the agent inside a running conversation. */
export const ConversationExecutionStatus = z.enum([
  'idle', 'running', 'paused', 'waiting_for_confirmation', 'finished', 'error', 'stuck', 'deleting',
]);
export type ConversationExecutionStatus = z.infer<typeof ConversationExecutionStatus>;

/** Sort orders of the app conversation search. */
export const AppConversationSortOrder = z.enum([
  'CREATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT', 'UPDATED_AT_DESC', 'TITLE', 'TITLE_DESC',
]);
export type AppConversationSortOrder = z.infer<typeof AppConversationSortOrder>;

/** Sort orders of the start task search. */
export const StartTaskSortOrder = z.enum(['CREATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT', 'UPDATED_AT_DESC']);
export type StartTaskSortOrder = z.infer<typeof StartTaskSortOrder>;

const DATETIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 datetime with a UTC offset, as pydantic writes it (`2025-11-01T09:00:00.123456Z`). */
export const DateTime = z.string().regex(DATETIME_PATTERN, 'expected an ISO 8601 datetime with an offset');

/** A UUID in any form pydantic accepts (hyphenated or 32 hex digits). */
export const Uuid = z.string().superRefine((value, ctx) => {
  const error = uuidError(value);
  if (error) {
    ctx.addIssue({
      code: 'custom',
      message: error,
      input: value,
      params: { pydantic: { type: 'uuid_parsing', msg: `Input should be a valid UUID, ${error}`, ctx: { error } } } satisfies PydanticErrorParams,
    });
  }
});

/** Explains why `value` is not a UUID the way pydantic's uuid parser does, or `null` when it is one. */
export function uuidError(value: string): string | null {
  const hex = value.replace(/^urn:uuid:/i, '');
  const bad = /[^0-9a-fA-F-]/.exec(hex);
  if (bad) {
    return `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${bad[0]}\` at ${bad.index + 1}`;
  }
  if (hex.includes('-')) {
    const groups = hex.split('-');
    if (groups.length !== 5) return `invalid group count: expected 5, found ${groups.length}`;
    const lengths = [8, 4, 4, 4, 12];
    for (let i = 0; i < 5; i++) {
      if (groups[i]!.length !== lengths[i]) {
        return `invalid group length in group ${i}: expected ${lengths[i]}, found ${groups[i]!.length}`;
      }
    }
    return null;
  }
  if (hex.length !== 32) return `invalid length: expected length 32 for simple format, found ${hex.length}`;
  return null;
}

/** The body of pause, resume and delete: `{"success": true}`. */
export const Success = z.object({ success: z.literal(true) });
export type Success = z.infer<typeof Success>;

/** A page of a search endpoint: `{"items": [...], "next_page_id": string|null}`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next_page_id: z.string().nullable() });
}

/** A batch get answer: an array aligned with the ids asked for, `null` for each missing one. */
export function batchOf<T extends z.ZodType>(item: T) {
  return z.array(item.nullable());
}

/** Strings pydantic's lax mode reads as booleans. */
const TRUE_STRINGS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_STRINGS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/** An integer checked by `inner`, also given as a string of digits (pydantic's lax mode, and every query parameter). */
export function laxInt<T extends z.ZodType<number>>(inner: T) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : value),
    inner,
  );
}

/** Any integer, also given as a string of digits. */
export const LaxInt = laxInt(z.int());

/** A boolean, also given as `true`/`false`/`1`/`0`/`yes`/`no`/... (pydantic's lax mode). */
export const LaxBool = z.preprocess((value) => {
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    if (TRUE_STRINGS.has(lower)) return true;
    if (FALSE_STRINGS.has(lower)) return false;
  }
  if (value === 0 || value === 1) return value === 1;
  return value;
}, z.boolean());
