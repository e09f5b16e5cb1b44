/**
 * Base64 both ways on `atob`/`btoa`, which the browser and Node share (the domain runs in both), or
 * on Node's `Buffer` where there is one: the same text and bytes, made natively (a megabyte decoded
 * by the loop below held the event loop about 9 ms, by `Buffer` about 1.5 ms: #29 finding 11). Uploaded
 * files are kept this way in records, which must stay JSON.
 */

/** Node's `Buffer`, when the domain runs in Node (looked up, never imported: the browser has none). */
interface NodeBuffer {
  from(text: string, encoding: 'base64'): Uint8Array;
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'base64'): string };
}
const nodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;

/** Bytes as base64. */
export function toBase64(bytes: Uint8Array): string {
  if (nodeBuffer) return nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Base64 as bytes. */
export function fromBase64(text: string): Uint8Array {
  if (nodeBuffer) {
    const bytes = nodeBuffer.from(text, 'base64');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
