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

/** pydantic's message for a UUID field given no string (`uuid_type`); `http/validation.ts` knows the issue by it. */
export const UUID_TYPE_MESSAGE = 'UUID input should be a string, bytes or UUID object';

/** A UUID in any form pydantic accepts (32 hex digits; hyphenated, also in `{}` or after `urn:uuid:`). */
export const Uuid = z.string({ error: UUID_TYPE_MESSAGE }).check(
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

/** Bytes of the longest form pydantic's UUID parser takes (`urn:uuid:` and the hyphenated form). */
const MAX_UUID_BYTES = 45;
/** Where each of the hyphenated form's five groups starts, and its length. */
const GROUP_STARTS: readonly number[] = [0, 9, 14, 19, 24];
const GROUP_LENGTHS: readonly number[] = [8, 4, 4, 4, 12];
const HEX_DIGIT = /^[0-9a-fA-F]$/;

/**
 * Explains why `value` is not a UUID, in the words of pydantic 2.14 (pydantic-core 2.50, the Rust
 * `uuid` crate's parser: `ctx.error` of a `uuid_parsing` error), or `null` when it is one. Forms
 * taken: 32 hex digits; 8-4-4-4-12 hyphenated, also inside `{}` or after a lowercase `urn:uuid:`.
 * A string of a form's exact length is checked as that form (its own characters counted from 0,
 * a `{` or `urn:` of the wrong length being a bad character); any other is checked whole, the
 * wrapper's characters counted. Checked by hand against the real validator, e.g. `not-a-uuid`:
 * "invalid character: found `n` at 0"; `abc`: "invalid length: found 3".
 */
export function uuidError(value: string): string | null {
  const bytes = utf8Length(value);
  if (bytes === 32) return formError(value, 0, true, bytes);
  if (bytes === 36) return formError(value, 0, false, bytes);
  if (bytes === 38 && value.startsWith('{') && value.endsWith('}')) return formError(value.slice(1, -1), 0, false, 36);
  if (bytes === MAX_UUID_BYTES && value.startsWith('urn:uuid:')) return formError(value.slice(9), 0, false, 36);
  if (bytes > MAX_UUID_BYTES) return `invalid length: found ${bytes}`;
  if (value.length >= 2 && value.startsWith('{') && value.endsWith('}')) return formError(value.slice(1, -1), 1, false, bytes);
  if (value.startsWith('urn:uuid:')) return formError(value.slice(9), 9, false, bytes);
  return formError(value, 0, true, bytes);
}

function utf8Length(value: string): number {
  let bytes = 0;
  for (const char of value) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * What is wrong with `text` (the UUID without its wrapper, which took `offset` characters): its
 * first character that is neither a hex digit nor `-`; else, for the bare form without a hyphen,
 * its length (`bytes`, the whole input's); else the count of groups; else the first group of the
 * wrong length (the last one measured from the whole input's length, as the parser does).
 */
function formError(text: string, offset: number, bare: boolean, bytes: number): string | null {
  const hyphens: number[] = [];
  let index = 0;
  // By code point: every character before the first bad one is ASCII, so the index is the byte's too.
  for (const char of text) {
    if (char === '-') hyphens.push(index);
    else if (!HEX_DIGIT.test(char)) return `invalid character: found \`${char}\` at ${index + offset}`;
    index++;
  }
  if (hyphens.length === 0 && bare) return bytes === 32 ? null : `invalid length: found ${bytes}`;
  if (hyphens.length !== 4) return `invalid group count: expected 5, found ${hyphens.length + 1}`;
  for (let group = 0; group < 4; group++) {
    const end = hyphens[group]!;
    const start = GROUP_STARTS[group]!;
    if (end !== GROUP_STARTS[group + 1]! - 1) {
      return `invalid group length in group ${group}: expected ${GROUP_LENGTHS[group]}, found ${end - start}`;
    }
  }
  if (bytes === 36) return null;
  return `invalid group length in group 4: expected 12, found ${bytes - GROUP_STARTS[4]!}`;
}

/** The body of pause, resume and delete: `{"success": true}`. */
export const Success = z.object({ success: z.boolean() });
export type Success = z.infer<typeof Success>;
