export interface CharCandidate {
  char: string;
  prob: number;
}

export interface DecodedText {
  text: string;
  /** Mean of the per-character probabilities (0 for an empty reading). */
  confidence: number;
  charConfidences: number[];
  /** Per character, the best few classes at the frame where it peaked: lets a grammar swap a
   * character for the runner-up (O for 0) with evidence rather than guesswork. */
  alternatives: CharCandidate[][];
}

export interface CtcOptions {
  /** 1 for allowed classes; others are ignored (blank must stay allowed). */
  mask?: Uint8Array;
  /** How many candidates to keep per character. */
  topK?: number;
}

/** Greedy CTC decode of one sequence: [frames x classes] probabilities, blank at index 0.
 * Repeated classes collapse unless a blank separates them. */
export function ctcGreedyDecode(probs: Float32Array, frames: number, classes: number, chars: readonly string[], options: CtcOptions = {}): DecodedText {
  const { mask, topK = 3 } = options;
  let text = '';
  const charConfidences: number[] = [];
  const alternatives: CharCandidate[][] = [];
  let prev = 0;
  let curBestProb = 0;
  let curBestFrame = -1;
  const flush = () => {
    if (prev === 0 || curBestFrame < 0) return;
    text += chars[prev] ?? '';
    charConfidences.push(curBestProb);
    alternatives.push(topClasses(probs, curBestFrame * classes, classes, chars, mask, topK));
  };
  for (let t = 0; t < frames; t++) {
    const base = t * classes;
    let best = 0;
    let bestP = -1;
    for (let c = 0; c < classes; c++) {
      if (mask && !mask[c]) continue;
      const p = probs[base + c]!;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== prev) {
      flush();
      prev = best;
      curBestProb = bestP;
      curBestFrame = t;
    } else if (bestP > curBestProb) {
      curBestProb = bestP;
      curBestFrame = t;
    }
  }
  flush();
  const confidence = charConfidences.length ? charConfidences.reduce((a, b) => a + b, 0) / charConfidences.length : 0;
  return { text, confidence, charConfidences, alternatives };
}

function topClasses(probs: Float32Array, base: number, classes: number, chars: readonly string[], mask: Uint8Array | undefined, k: number): CharCandidate[] {
  const top: CharCandidate[] = [];
  for (let c = 1; c < classes; c++) {
    if (mask && !mask[c]) continue;
    const p = probs[base + c]!;
    if (top.length < k || p > top[top.length - 1]!.prob) {
      top.push({ char: chars[c] ?? '', prob: p });
      top.sort((a, b) => b.prob - a.prob);
      if (top.length > k) top.pop();
    }
  }
  return top;
}
