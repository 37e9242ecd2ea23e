import { errors } from '../../../services/errors.js';
import type { PlateReadOptions } from '../../../vision/plates/plate.types.js';
import type { RecognitionRequest } from '../../recognition-request.js';

const REGION = /^[a-z]{2}(-[a-z0-9]{1,3})?$/;
const MAX_TEXT_FORMATS = 10;

/** `regions` repeated (`-F regions=us-ca -F regions=mx`) or comma-joined (`regions=us,ca`). */
export function parseRegions(values: string[] | undefined): string[] {
  const codes = (values ?? []).flatMap((v) => v.split(',')).map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const code of codes) {
    if (!REGION.test(code)) throw errors.badRequest(`Invalid region "${code}"; use lower-case ISO 3166 codes such as us, us-ca, br, gb.`, 'invalid_region');
  }
  return [...new Set(codes)];
}

export function parseBool(value: string | undefined, name: string): boolean {
  if (value === undefined) return false;
  const v = value.toLowerCase();
  if (['true', '1', 'yes'].includes(v)) return true;
  if (['false', '0', 'no', ''].includes(v)) return false;
  throw errors.badRequest(`Invalid ${name} "${value}"; use true or false.`, 'invalid_parameter');
}

interface ConfigJson {
  mode?: unknown;
  threshold_d?: unknown;
  threshold_o?: unknown;
  detection_rule?: unknown;
  region?: unknown;
  text_formats?: unknown;
  detection_mode?: unknown;
}

/** `config`: a JSON object as a string (clients send `{}` when they have nothing to say). */
export function parsePlateConfig(raw: string | undefined, regions: string[], mmc: boolean): { options: PlateReadOptions; vehicleMode: boolean } {
  let cfg: ConfigJson = {};
  if (raw !== undefined && raw.trim() !== '') {
    try {
      cfg = JSON.parse(raw) as ConfigJson;
    } catch {
      throw errors.badRequest('config is not valid JSON.', 'invalid_config');
    }
    if (cfg === null || typeof cfg !== 'object' || Array.isArray(cfg)) throw errors.badRequest('config must be a JSON object.', 'invalid_config');
  }
  const mode = cfg.mode ?? 'normal';
  if (mode !== 'normal' && mode !== 'fast' && mode !== 'redaction') throw errors.badRequest('config.mode must be "fast" or "redaction".', 'invalid_config');
  const score = (v: unknown, name: string, def: number) => {
    if (v === undefined) return def;
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n !== 'number' || !(n >= 0 && n <= 1)) throw errors.badRequest(`config.${name} must be a number from 0 to 1.`, 'invalid_config');
    return n;
  };
  const formats = cfg.text_formats ?? [];
  if (!Array.isArray(formats) || formats.length > MAX_TEXT_FORMATS || formats.some((f) => typeof f !== 'string' || f.length > 100)) {
    throw errors.badRequest(`config.text_formats must be a list of at most ${MAX_TEXT_FORMATS} regular expressions.`, 'invalid_config');
  }
  for (const f of formats as string[]) {
    try {
      new RegExp(f);
    } catch {
      throw errors.badRequest(`config.text_formats has an invalid regular expression: ${f}`, 'invalid_config');
    }
  }
  return {
    options: {
      regions,
      strictRegion: cfg.region === 'strict',
      textFormats: formats as string[],
      mode,
      thresholdD: score(cfg.threshold_d, 'threshold_d', 0.2),
      thresholdO: score(cfg.threshold_o, 'threshold_o', 0.6),
      strictDetection: cfg.detection_rule === 'strict',
      mmc,
    },
    vehicleMode: cfg.detection_mode === 'vehicle',
  };
}

export function plateParams(req: RecognitionRequest) {
  const regions = parseRegions(req.fields.get('regions'));
  const mmc = parseBool(req.fields.get('mmc')?.[0], 'mmc');
  return parsePlateConfig(req.fields.get('config')?.[0], regions, mmc);
}
