import sharp from 'sharp';
import { decodeImage, type RawImage } from '../image/decode.js';
import { prepareDetectionInput } from '../ocr/det-preprocess.js';
import { prepareRecognitionBatch } from '../ocr/rec-preprocess.js';

/**
 * Inputs on which the int8 variants observe activation ranges: text that looks like what Vigil
 * reads (plates, container codes, odometers, VINs), drawn with the machine's fonts. Made here,
 * deterministically, so a derived model never depends on a dataset or a download.
 */
const LINES = ['ABC1234', 'MSCU 123456 7', 'KLM 4821', '1HGCM82633A004352', 'ODO 123456 km', 'okp7250', '45G1', 'TRLU 530217', 'BR 3X42', '98.6 C'];
const BACKGROUNDS = ['#d9d4c7', '#f4f4ee', '#2b3440', '#7a1f1f', '#8fb3d9'];
const INKS = ['#1a1a1a', '#1a1a3a', '#f4f4ee', '#f4f4ee', '#111111'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function render(svg: string): Promise<RawImage> {
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer().then((jpeg) => decodeImage(jpeg));
}

/** Scenes for the detector, 1920x1080 photos seen at `limitSide` as the engine sees them. */
export async function detectionCalibrationInputs(limitSide = 640): Promise<Array<{ data: Float32Array; dims: readonly number[] }>> {
  const out = [];
  for (let k = 0; k < 4; k++) {
    const w = 1920;
    const h = 1080;
    const texts = LINES.slice(k * 2, k * 2 + 5).map((t, i) => {
      const size = [90, 48, 30, 64, 22][i]!;
      return `<text x="${120 + ((i * 337 + k * 151) % 900)}" y="${180 + i * 190}" font-family="DejaVu Sans${i % 2 ? ' Mono' : ''}" font-weight="${i % 2 ? 'normal' : 'bold'}" font-size="${size}" fill="${INKS[(i + k) % INKS.length]}">${esc(t)}</text>`;
    });
    const panels = [0, 1, 2].map((i) => `<rect x="${80 + i * 600}" y="${120 + ((i + k) % 3) * 260}" width="${520}" height="${300}" rx="18" fill="${BACKGROUNDS[(i + k + 1) % BACKGROUNDS.length]}"/>`);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8fb3d9"/><stop offset="1" stop-color="#5a5a5a"/></linearGradient></defs>
      <rect width="${w}" height="${h}" fill="url(#g)"/>${panels.join('')}${texts.join('')}</svg>`;
    const input = prepareDetectionInput(await render(svg), limitSide);
    out.push({ data: input.data, dims: input.dims });
  }
  return out;
}

/** Single-line crops for the recogniser, one batch of one each. */
export async function recognitionCalibrationInputs(): Promise<Array<{ data: Float32Array; dims: readonly number[] }>> {
  const out = [];
  for (let i = 0; i < LINES.length; i++) {
    const text = LINES[i]!;
    const bg = BACKGROUNDS[i % BACKGROUNDS.length]!;
    const ink = INKS[i % INKS.length]!;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${24 * text.length + 12}" height="52"><rect width="100%" height="100%" fill="${bg}"/>
      <text x="6" y="40" font-family="DejaVu Sans${i % 2 ? ' Mono' : ''}" font-weight="${i % 2 ? 'normal' : 'bold'}" font-size="34" fill="${ink}">${esc(text)}</text></svg>`;
    const batch = prepareRecognitionBatch([await render(svg)]);
    out.push({ data: batch.data, dims: batch.dims });
  }
  return out;
}
