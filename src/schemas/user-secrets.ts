/**
 * The user's custom secrets, as both generations read and write them: legacy `/api/secrets`
 * (openhands `server/routes/secrets.py`, `server/settings.py`: `CustomSecretModel`,
 * `CustomSecretWithoutValueModel`, `GETCustomSecrets`) and `/api/v1/secrets` (`CustomSecretCreate`,
 * `CustomSecretWithoutValue`, `CustomSecretPage`, `EditResponse`). A value is stored, never answered.
 */
import * as z from 'zod/mini';
import { pageOf } from './helpers.js';

/** A stored custom secret: its name (its id), description and value. */
export const CustomSecretRecord = z.strictObject({
  name: z.string().check(z.minLength(1)),
  description: z._default(z.nullable(z.string()), null),
  value: z.string(),
});
export type CustomSecretRecord = z.output<typeof CustomSecretRecord>;

/** `POST /api/secrets` and `POST /api/v1/secrets`: a name, a value, and an optional description. */
export const CustomSecretCreate = z.object({
  name: z.string(),
  value: z.string(),
  description: z._default(z.nullable(z.string()), null),
});

/** `PUT /api/secrets/{id}` and `PUT /api/v1/secrets/{id}`: a new name and description (the value stays). */
export const CustomSecretWithoutValue = z.object({
  name: z.string(),
  description: z._default(z.nullable(z.string()), null),
});

/** A secret as it is listed: name and description only. */
export const CustomSecretListed = z.object({ name: z.string(), description: z.nullable(z.string()) });

/** `GET /api/secrets` (`GETCustomSecrets`). */
export const GETCustomSecrets = z.object({ custom_secrets: z.nullable(z.array(CustomSecretListed)) });

/** `GET /api/v1/secrets/search` (`CustomSecretPage`). */
export const CustomSecretPage = pageOf(CustomSecretListed);

/** `{"message": ...}` (`EditResponse`, and the legacy routes' answers). */
export const EditResponse = z.object({ message: z.string() });
