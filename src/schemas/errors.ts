import * as z from 'zod/mini';

/** `{"detail": "..."}`: 401, 404, 405, 409 and 413 answers. */
export const DetailError = z.object({ detail: z.string() });
export type DetailError = z.infer<typeof DetailError>;

/** One pydantic v2 validation problem as FastAPI reports it. */
export const ValidationErrorItem = z.object({
  type: z.string(),
  loc: z.array(z.union([z.string(), z.int()])).check(z.minLength(1)),
  msg: z.string(),
  input: z.unknown(),
  ctx: z.optional(z.record(z.string(), z.unknown())),
});
export type ValidationErrorItem = z.infer<typeof ValidationErrorItem>;

/** FastAPI's 422 body: `{"detail": [{type, loc, msg, input}, ...]}`. */
export const HTTPValidationError = z.object({ detail: z.array(ValidationErrorItem).check(z.minLength(1)) });
export type HTTPValidationError = z.infer<typeof HTTPValidationError>;

/** The legacy routes' own error body: `{"status": "error", "message": ..., "msg_id": "CONVERSATION$NOT_FOUND"}`. */
export const LegacyError = z.object({ status: z.literal('error'), message: z.string(), msg_id: z.string() });
export type LegacyError = z.infer<typeof LegacyError>;
