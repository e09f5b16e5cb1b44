/**
 * The ZIP writer behind `GET /api/v1/app-conversations/{id}/download`: real archives, read back by
 * the system's `unzip` and Python's `zipfile`, ZIP64 included.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { zipArchive } from '../../src/domain/agent/zip.js';

async function written(bytes: Uint8Array): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'fakehands-zip-')), 'archive.zip');
  await writeFile(file, bytes);
  return file;
}

describe('zipArchive', () => {
  it('writes an archive unzip reads back, file by file', async () => {
    const file = await written(zipArchive({ 'README.md': '# Hi\n', 'src/ünïcode.ts': 'export {};\n' }, Date.UTC(2025, 10, 3, 9)));
    expect(execFileSync('unzip', ['-p', file, 'README.md']).toString()).toBe('# Hi\n');
    const names = 'import sys, json, zipfile; print(json.dumps(zipfile.ZipFile(sys.argv[1]).namelist()))';
    expect(JSON.parse(execFileSync('python3', ['-c', names, file]).toString())).toEqual(['README.md', 'src/ünïcode.ts']);
  });

  it('past 65,535 entries writes ZIP64 records: the count does not wrap, and every entry is there', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 70_000; i++) files[`events/${String(i).padStart(6, '0')}.json`] = `{"n":${i}}\n`;
    const file = await written(zipArchive(files, Date.UTC(2025, 10, 3, 9)));
    // What the archive says of itself (a wrapped count reads 4,464 here), then every entry read back.
    expect(execFileSync('zipinfo', ['-h', file]).toString()).toContain('number of entries: 70000');
    expect(
      execFileSync('unzip', ['-Z1', file], { maxBuffer: 64 * 1024 * 1024 })
        .toString()
        .trim()
        .split('\n'),
    ).toHaveLength(70_000);
    const python =
      'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(len(z.namelist()), z.read("events/069999.json").decode().strip())';
    expect(execFileSync('python3', ['-c', python, file]).toString().trim()).toBe('70000 {"n":69999}');
  }, 60_000);
});
