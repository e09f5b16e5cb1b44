/**
 * The entries of a ZIP archive held whole in memory, read from its central directory (APPNOTE.TXT
 * 4.3.12, 4.3.16): name, method, sizes and where its data starts. Nothing is inflated here, so the
 * names and the count can be checked before any work is done on an entry (`replay-zip.ts`). ZIP64
 * archives (past 65,535 entries or 4 GiB) are not read: a recorded session is far smaller.
 * Kept by hand against fflate 0.8.3's reader (`bench/zip.ts`): fflate's `unzipSync` lists 10,000
 * entries faster (3 ms, 12 ms here) but gives no entry's compressed bytes without inflating them,
 * and trusts a declared size: a 205 KB entry declaring 1 KiB and inflating to 200 MB took 2.8 s of
 * inflating and came back cut to 1,024 bytes without an error, where this reader with the bounded
 * inflate of `replay-zip.ts` refuses it in 275 ms.
 */

/** One entry of an archive. */
export interface ZipEntry {
  name: string;
  /** 0: stored; 8: deflated. */
  method: number;
  /** Its data, as stored in the archive (compressed when `method` is 8). */
  data: Uint8Array;
  /** The size the central directory declares once inflated (not to be trusted: a bomb lies). */
  declaredSize: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** The entries of `bytes`, or why it is no ZIP archive this reader takes. */
export function zipEntries(bytes: Uint8Array): ZipEntry[] | string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  // The end record is the last 22 bytes, before a comment of up to 65,535: the last signature whose comment reaches the end.
  let end = -1;
  for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 65_535; at--) {
    if (u32(at) === END_OF_DIRECTORY && at + 22 + u16(at + 20) === bytes.length) {
      end = at;
      break;
    }
  }
  if (end < 0) return 'the file is not a ZIP archive (no end of central directory)';
  const count = u16(end + 10);
  const directoryAt = u32(end + 16);
  if (count === 0xffff || directoryAt === 0xffffffff) return 'ZIP64 archives are not read';
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const entries: ZipEntry[] = [];
  let at = directoryAt;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || u32(at) !== DIRECTORY_ENTRY) return 'the archive is damaged (a bad central directory entry)';
    const method = u16(at + 10);
    const compressed = u32(at + 20);
    const declaredSize = u32(at + 24);
    const nameLength = u16(at + 28);
    const local = u32(at + 42);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + u16(at + 30) + u16(at + 32);
    if (compressed === 0xffffffff || declaredSize === 0xffffffff || local === 0xffffffff) return 'ZIP64 archives are not read';
    if (local + 30 > bytes.length || u32(local) !== LOCAL_HEADER) return `the archive is damaged (no local header for ${name})`;
    const start = local + 30 + u16(local + 26) + u16(local + 28);
    if (start + compressed > bytes.length) return `the archive is damaged (${name} runs past its end)`;
    entries.push({ name, method, data: bytes.subarray(start, start + compressed), declaredSize });
  }
  return entries;
}
