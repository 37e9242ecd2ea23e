import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `count` frames spread evenly over a video, as JPEGs, decoded by the `ffmpeg` command (Debian's
 * `ffmpeg`; the benchmarks' only use of it). Null where ffmpeg is not installed: the caller skips. */
export function videoFrames(file: string, count: number): Buffer[] | null {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const total = Number(execFileSync('ffprobe', ['-v', 'error', '-count_packets', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', file]).toString().trim());
  const every = Math.max(1, Math.floor(total / count));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-frames-'));
  try {
    execFileSync('ffmpeg', ['-loglevel', 'error', '-i', file, '-vf', `select=not(mod(n\\,${every}))`, '-vsync', '0', '-frames:v', String(count), '-q:v', '2', path.join(dir, '%04d.jpg')]);
    return fs.readdirSync(dir).sort().map((f) => fs.readFileSync(path.join(dir, f)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
