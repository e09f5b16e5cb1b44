/** What the consumer tests share: catching the `ApiError` a call must throw. */
import { ApiError } from '../../src/client/index.js';

/** Catches the ApiError a call must throw. */
export async function apiError(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail with an ApiError');
}
