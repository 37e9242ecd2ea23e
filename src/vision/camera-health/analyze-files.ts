import fs from 'node:fs/promises';
import { classifyScores, type AnomalyScores } from '../../domain/camera-health.js';
import { ImageDecodeError } from '../image/decode.js';
import { extractFeatures, NotComparableError } from './features.js';
import { scoreAgainst } from './scores.js';

export interface FileAnalysis {
  file: string;
  status: 'normal' | 'anomaly' | 'under_review' | 'config_issue';
  anomalies: Partial<AnomalyScores>;
  scores: AnomalyScores | null;
  /** Why an image is a config_issue. */
  detail?: string;
}

/** What `vigil analyze-camera --reference REF IMAGE...` prints: each image against the
 * reference at the default thresholds, as the service would store it. */
export async function analyzeFilesForCli(referencePath: string, imagePaths: string[], onFile: () => void = () => {}): Promise<FileAnalysis[]> {
  const reference = await extractFeatures(await fs.readFile(referencePath));
  const out: FileAnalysis[] = [];
  for (const file of imagePaths) {
    try {
      const { scores } = scoreAgainst(reference, await extractFeatures(await fs.readFile(file)));
      const { status, anomalies } = classifyScores(scores);
      out.push({ file, status, anomalies, scores });
    } catch (err) {
      if (!(err instanceof NotComparableError || err instanceof ImageDecodeError)) throw err;
      out.push({ file, status: 'config_issue', anomalies: {}, scores: null, detail: err.message });
    }
    onFile();
  }
  return out;
}
