import * as z from 'zod/mini';
import './messages.js';
import type { PydanticErrorParams } from './helpers.js';

/** Largest page a search endpoint returns, and the default page size. */
export const MAX_PAGE_LIMIT = 100;
/** Most ids a batch get accepts. */
export const MAX_BATCH_IDS = 100;

/** Git provider of a repository (`ProviderType`), as the current server declares it. */
export const ProviderType = z.enum(['github', 'gitlab', 'bitbucket', 'bitbucket_data_center', 'forgejo', 'azure_devops', 'enterprise_sso']);
export type ProviderType = z.infer<typeof ProviderType>;

/** Sandbox lifecycle status as the real service reports it. */
export const SandboxStatus = z.enum(['STARTING', 'RUNNING', 'PAUSED', 'ERROR', 'MISSING']);
export type SandboxStatus = z.infer<typeof SandboxStatus>;

/** Legacy conversation status, derived from the sandbox that powers the conversation (the current server adds ARCHIVED and ERROR to the seed's three). */
export const ConversationStatus = z.enum(['STARTING', 'RUNNING', 'STOPPED', 'ARCHIVED', 'ERROR']);
export type ConversationStatus = z.infer<typeof ConversationStatus>;

/** What started a conversation. */
export const ConversationTrigger = z.enum([
  'resolver',
  'gui',
  'suggested_task',
  'openhands_api',
  'slack',
  'microagent_management',
  'jira',
  'jira_dc',
  'linear',
  'bitbucket',
  'automation',
]);
export type ConversationTrigger = z.infer<typeof ConversationTrigger>;

/** State of the agent inside a running conversation. */
export const ConversationExecutionStatus = z.enum([
  'idle',
  'running',
  'paused',
  'waiting_for_confirmation',
  'finished',
  'error',
  'stuck',
  'deleting',
]);
export type ConversationExecutionStatus = z.infer<typeof ConversationExecutionStatus>;

/** Sort orders of the start task search. */
export const StartTaskSortOrder = z.enum(['CREATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT', 'UPDATED_AT_DESC']);
export type StartTaskSortOrder = z.infer<typeof StartTaskSortOrder>;

const DATETIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 datetime with a UTC offset, as pydantic writes it (`2025-11-01T09:00:00.123456Z`). */
export const DateTime = z.string().check(z.regex(DATETIME_PATTERN, 'expected an ISO 8601 datetime with an offset'));

/** A V1 id as the real server writes it (`OpenHandsUUID`: `uuid.hex`, 32 lowercase hex digits). */
export const HexId = z.string().check(z.regex(/^[0-9a-f]{32}$/, 'expected 32 lowercase hex digits'));

/** A UUID in any form pydantic accepts (hyphenated or 32 hex digits). */
export const Uuid = z.string().check(
  z.superRefine((value, ctx) => {
    const error = uuidError(value);
    if (error) {
      ctx.addIssue({
        code: 'custom',
        message: error,
        input: value,
        params: {
          pydantic: { type: 'uuid_parsing', msg: `Input should be a valid UUID, ${error}`, ctx: { error } },
        } satisfies PydanticErrorParams,
      });
    }
  }),
);

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
export const Success = z.object({ success: z.boolean() });
export type Success = z.infer<typeof Success>;
