import fs from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../services/errors.js';

const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp', '.tif', '.tiff', '.gif', '.heic', '.heif']);
const isImage = (name: string) => IMAGE_EXTENSIONS.has(path.extname(name).toLowerCase());

/** A `*` / `?` pattern of one path segment as a regular expression. */
function segmentPattern(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}

/** The image files the offline commands read: a folder stands for its images (sorted, not
 * recursive), a quoted pattern (`'lane-2/*.jpg'`, `*` and `?` in the file name) for the files
 * it matches, anything else for itself. A name that matches nothing is an error, not silence. */
export async function expandImageInputs(inputs: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const input of inputs) {
    const stat = await fs.stat(input).catch(() => undefined);
    if (stat?.isDirectory()) {
      out.push(...(await fs.readdir(input)).filter(isImage).sort().map((f) => path.join(input, f)));
      continue;
    }
    if (stat) {
      out.push(input);
      continue;
    }
    if (/[*?]/.test(path.basename(input)) && !/[*?]/.test(path.dirname(input))) {
      const dir = path.dirname(input);
      const pattern = segmentPattern(path.basename(input));
      const matches = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => pattern.test(f)).sort();
      if (matches.length > 0) {
        out.push(...matches.map((f) => path.join(dir, f)));
        continue;
      }
    }
    throw new AppError(400, 'no_such_file', `No such file, folder or matching files: ${input}`);
  }
  return out;
}

/** Progress of a long run on standard error, rewritten in place: `12/340 files, 3.2/s, 1m 40s
 * left`. Only for a terminal (a log or a pipe gets nothing), and only for more than one file. */
export function progressReporter(total: number, write: ((text: string) => void) | undefined, now: () => number = () => performance.now()): () => void {
  if (!write || total < 2) return () => {};
  const started = now();
  let done = 0;
  return () => {
    done++;
    const seconds = (now() - started) / 1000;
    const rate = done / Math.max(seconds, 1e-3);
    const left = Math.round((total - done) / rate);
    const eta = left >= 60 ? `${Math.floor(left / 60)}m ${left % 60}s` : `${left}s`;
    write(`\r${done}/${total} files, ${rate.toFixed(1)}/s, ${eta} left${done === total ? '\n' : ''}`);
  };
}
