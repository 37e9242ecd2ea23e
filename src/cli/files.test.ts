import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCsv } from '../domain/csv.js';
import { expandImageInputs, progressReporter } from './files.js';

describe('offline command inputs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-files-'));
    for (const f of ['b.jpg', 'a.JPG', 'c.heic', 'notes.txt', 'lane-2.png']) await fs.writeFile(path.join(dir, f), 'x');
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('takes a folder as its images, sorted, other files left out', async () => {
    expect((await expandImageInputs([dir])).map((f) => path.basename(f))).toEqual(['a.JPG', 'b.jpg', 'c.heic', 'lane-2.png']);
  });

  it('expands a quoted pattern in the file name, keeps plain files, and refuses what matches nothing', async () => {
    expect((await expandImageInputs([path.join(dir, '?.jpg'), path.join(dir, 'lane-*')])).map((f) => path.basename(f))).toEqual(['b.jpg', 'lane-2.png']);
    expect(await expandImageInputs([path.join(dir, 'notes.txt')])).toEqual([path.join(dir, 'notes.txt')]);
    await expect(expandImageInputs([path.join(dir, 'missing.jpg')])).rejects.toMatchObject({ code: 'no_such_file' });
    await expect(expandImageInputs([path.join(dir, '*.bmp')])).rejects.toMatchObject({ code: 'no_such_file' });
  });
});

describe('progress and CSV', () => {
  it('reports count, rate and time left in place, ending the line on the last file', () => {
    const lines: string[] = [];
    let t = 0;
    const tick = progressReporter(3, (s) => lines.push(s), () => t);
    t = 500;
    tick();
    t = 1000;
    tick();
    t = 1500;
    tick();
    expect(lines).toEqual(['\r1/3 files, 2.0/s, 1s left', '\r2/3 files, 2.0/s, 1s left', '\r3/3 files, 2.0/s, 0s left\n']);
    // Nothing without a terminal, or for one file.
    expect(() => progressReporter(3, undefined)()).not.toThrow();
    const one: string[] = [];
    progressReporter(1, (s) => one.push(s))();
    expect(one).toEqual([]);
  });

  it('quotes CSV fields that need it', () => {
    expect(toCsv(['file', 'value'], [['a,b.jpg', 'say "hi"'], ['c.jpg', undefined]])).toBe('file,value\n"a,b.jpg","say ""hi"""\nc.jpg,');
  });
});
