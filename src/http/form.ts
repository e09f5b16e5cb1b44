/**
 * Multipart forms, read as FastAPI's `File()` and `Form()` parameters read them: only the upload
 * routes have one, so this is loaded with the first (see `parse.ts`).
 */
import type { ValidationErrorItem } from '../schemas/errors.js';
import type { RequestLike } from './responses.js';
import type { FormFields, UploadedFile } from './route.js';

/** Whether a value of a parsed form is a file (a `File`, or a `Blob` with a name). */
function isFile(value: unknown): value is Blob & { name?: string } {
  return typeof value === 'object' && value !== null && typeof (value as Blob).arrayBuffer === 'function';
}

/**
 * Reads a multipart form as FastAPI's `File()` and `Form()` parameters do: each declared field is
 * required; a body that is not a multipart form lacks them all (422 `missing` at `["body", name]`).
 */
export async function readForm(
  request: RequestLike,
  fields: FormFields,
  maxBytes?: number,
): Promise<{ ok: true; value: Record<string, UploadedFile | UploadedFile[] | string> } | { ok: false; errors: ValidationErrorItem[] }> {
  const contentType = request.headers.get('content-type') ?? '';
  let form: FormData | null = null;
  if (contentType.toLowerCase().startsWith('multipart/form-data')) {
    const bytes = request.arrayBuffer ? await request.arrayBuffer(maxBytes) : new TextEncoder().encode(await request.text(maxBytes));
    form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData().catch(() => null);
  }
  const value: Record<string, UploadedFile | UploadedFile[] | string> = {};
  const errors: ValidationErrorItem[] = [];
  const upload = async (file: Blob & { name?: string }): Promise<UploadedFile> => ({
    filename: file.name ?? 'upload',
    content_type: file.type || 'application/octet-stream',
    bytes: new Uint8Array(await file.arrayBuffer()),
  });
  for (const [name, kind] of Object.entries(fields)) {
    const given: unknown = form?.get(name) ?? null;
    if (kind === 'files' && given !== null) {
      const all = form!.getAll(name);
      const index = all.findIndex((item) => !isFile(item));
      if (index >= 0)
        errors.push({
          type: 'value_error',
          loc: ['body', name, index],
          msg: "Value error, Expected UploadFile, received: <class 'str'>",
          input: String(all[index]),
          ctx: { error: {} },
        });
      else value[name] = await Promise.all(all.map((item) => upload(item as Blob)));
    } else if (given === null) {
      errors.push({ type: 'missing', loc: ['body', name], msg: 'Field required', input: null });
    } else if (kind === 'file' && !isFile(given)) {
      errors.push({
        type: 'value_error',
        loc: ['body', name],
        msg: "Value error, Expected UploadFile, received: <class 'str'>",
        input: String(given),
        ctx: { error: {} },
      });
    } else if (kind === 'file' && isFile(given)) {
      value[name] = await upload(given);
    } else {
      value[name] = isFile(given) ? await given.text() : String(given);
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}
