import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parsePlateLineReader } from '../vision/plates/plate-line-reader.js';
import { parsePlateFinder } from '../vision/plates/plate-finder.js';
import { parseStackReader } from '../vision/ocr/stack-reader.js';
import { parseIdentifierReader } from '../vision/ocr/identifier-reader.js';
import { parsePlateSearch } from '../vision/plates/plate-search.js';
import { parsePlateVehicles } from '../vision/plates/plate-vehicles.js';
import { parseOcrPrecision } from '../vision/runtime/model-variants.js';
import { parseInferenceMemory, type VisionSettings } from '../vision/settings.js';

const MB = 1024 * 1024;

const intFrom = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);
/** A setting a worker thread parses itself, parsed here too so a typo stops the process at start
 * rather than at the first reading. */
const checkedBy = (parse: (value: string | undefined) => unknown) => z.string().optional().superRefine((value, ctx) => {
  try {
    parse(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
  }
});
const boolFrom = (def: boolean) =>
  z.enum(['true', 'false', '1', '0', 'yes', 'no']).default(def ? 'true' : 'false').transform((v) => ['true', '1', 'yes'].includes(v));

/** Every setting Vigil reads from the environment. Defaults are the embedded mode: SQLite and
 * images under DATA_DIR, jobs in-process. Keep this table and docs/configuration.md's in step. */
const envSchema = z.object({
  PORT: intFrom(8080, 0).pipe(z.number().max(65535)),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().regex(/^(sqlite:|postgres(ql)?:\/\/)/, 'must start with sqlite: or postgres://').optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must start with redis://').optional(),
  BLOB_URL: z.string().regex(/^s3:\/\//, 'must start with s3:// (leave unset for files under DATA_DIR)').optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  IMAGE_URL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  IMAGE_URL_TTL_SECONDS: intFrom(7 * 24 * 3600, 60),
  MAX_IMAGE_PIXELS: intFrom(50_000_000, 1),
  MAX_UPLOAD_BYTES: intFrom(10 * MB, 1024),
  PLATE_MAX_UPLOAD_BYTES: intFrom(3 * MB, 1024),
  /** Most upload bytes held at once (src/http/plugins/upload-admission.plugin.ts). */
  UPLOAD_MEMORY_BYTES: intFrom(128 * MB, 1024),
  CAMERA_UPLOAD_INTERVAL_SECONDS: intFrom(900, 0),
  UPLOAD_RATE_PER_SECOND: z.coerce.number().positive().default(1),
  RECOGNITION_RATE_PER_SECOND: z.coerce.number().positive().default(8),
  CAMERA_OFFLINE_AFTER_SECONDS: intFrom(3600, 1),
  ALERT_GROUP_WINDOW_SECONDS: intFrom(60, 0),
  OBSTRUCTION_CONFIRMATIONS: intFrom(2, 1),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().min(3).default('Vigil <vigil@localhost>'),
  /** Events to an MQTT broker (docs/integrations/mqtt.md); off when unset. */
  MQTT_URL: z.string().regex(/^(mqtts?|wss?):\/\//, 'must start with mqtt://, mqtts://, ws:// or wss://').optional(),
  MQTT_CA_FILE: z.string().min(1).optional(),
  MQTT_TOPIC_PREFIX: z.string().regex(/^[^#+\u0000]+$/, 'must not contain # or +').default('vigil'),
  MQTT_DISCOVERY: boolFrom(true),
  MQTT_DISCOVERY_PREFIX: z.string().regex(/^[^#+\u0000]+$/, 'must not contain # or +').default('homeassistant'),
  WEBHOOK_TIMEOUT_MS: intFrom(10_000, 100),
  WEBHOOK_MAX_ATTEMPTS: intFrom(6, 1),
  WEBHOOK_DISABLE_AFTER_FAILURES: intFrom(20, 1),
  /** Hosts or CIDR ranges that upload_url and webhooks may reach although private (on-premise). */
  OUTBOUND_ALLOW: z.string().default(''),
  WORKER_THREADS: intFrom(Math.max(1, Math.min(os.availableParallelism() - 1, 4)), 1),
  INFERENCE_THREADS: intFrom(os.availableParallelism(), 1),
  /** Graph variant of the OCR models (src/vision/runtime/model-variants.ts). */
  OCR_PRECISION: checkedBy(parseOcrPrecision),
  /** Recogniser sessions on threads of their own per analysis worker, beside the one on its
   * thread (0, the default: that one alone; src/vision/ocr/ocr-engine.ts). */
  OCR_RECOGNIZER_THREADS: z.coerce.number().int().min(0).max(16).optional(),
  /** src/vision/plates/plate-search.ts. */
  PLATE_SEARCH: checkedBy(parsePlateSearch),
  /** src/vision/plates/plate-line-reader.ts. */
  PLATE_READER: checkedBy(parsePlateLineReader),
  /** src/vision/plates/plate-finder.ts. */
  PLATE_DETECTOR: checkedBy(parsePlateFinder),
  /** src/vision/plates/plate-vehicles.ts. */
  PLATE_VEHICLES: checkedBy(parsePlateVehicles),
  /** src/vision/ocr/stack-reader.ts. */
  STACK_READER: checkedBy(parseStackReader),
  /** src/vision/ocr/identifier-reader.ts. */
  IDENTIFIER_READER: checkedBy(parseIdentifierReader),
  /** src/vision/settings.ts. */
  INFERENCE_MEMORY: checkedBy(parseInferenceMemory),
  PLATE_HISTORY_DAYS: intFrom(30, 0),
  PLATE_HISTORY_IMAGES: boolFrom(false),
  PLATE_VISIT_GAP_SECONDS: intFrom(120, 1),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  VIGIL_PROFILE: z.enum(['hosted', 'onprem']).default('hosted'),
  LICENSE_KEY: z.string().default(''),
  MAX_CALLS: intFrom(0, 0),
  SHUTDOWN_GRACE_MS: intFrom(10_000, 0),
  JOB_LEASE_SECONDS: intFrom(120, 1),
  RUN_MIGRATIONS: boolFrom(true),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  redisUrl: string | undefined;
  blobs: { kind: 'fs'; root: string } | { kind: 's3'; url: string; endpoint: string | undefined; region: string };
  logLevel: Env['LOG_LEVEL'];
  images: { urlSecret: string | undefined; urlTtlSeconds: number; maxPixels: number };
  limits: { maxUploadBytes: number; plateMaxUploadBytes: number; uploadMemoryBytes: number; uploadRatePerSecond: number; recognitionRatePerSecond: number };
  camera: { uploadIntervalSeconds: number; offlineAfterSeconds: number; alertGroupWindowSeconds: number; obstructionConfirmations: number };
  mail: { smtpUrl: string | undefined; from: string };
  /** Undefined when MQTT_URL is unset. */
  mqtt: { url: string; caFile: string | undefined; prefix: string; discoveryPrefix: string | undefined } | undefined;
  webhooks: { timeoutMs: number; maxAttempts: number; disableAfterFailures: number };
  outboundAllow: string[];
  workers: { threads: number; jobLeaseSeconds: number };
  /** Handed to the vision worker pools (src/vision/settings.ts). */
  vision: VisionSettings;
  /** Plate read history: days kept (0: none), whether each call's photo is kept with it, and
   * the longest gap between reads of one visit. */
  plateHistory: { retentionDays: number; keepImages: boolean; visitGapSeconds: number };
  role: Env['ROLE'];
  profile: Env['VIGIL_PROFILE'];
  onprem: { licenseKey: string; maxCalls: number };
  shutdownGraceMs: number;
  runMigrations: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Builds the one config object. Throws a ConfigError that names each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Record<keyof Env, string>> = {}): Config {
  const merged = { ...pickDefined(env), ...pickDefined(overrides) };
  const parsed = envSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0] ?? 'config');
      return `${name}=${JSON.stringify(merged[name] ?? '')}: ${i.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    database: databaseFrom(e.DATABASE_URL, dataDir),
    redisUrl: e.REDIS_URL,
    blobs: e.BLOB_URL
      ? { kind: 's3', url: e.BLOB_URL, endpoint: e.S3_ENDPOINT, region: e.S3_REGION }
      : { kind: 'fs', root: path.join(dataDir, 'blobs') },
    logLevel: e.LOG_LEVEL,
    images: { urlSecret: e.IMAGE_URL_SECRET, urlTtlSeconds: e.IMAGE_URL_TTL_SECONDS, maxPixels: e.MAX_IMAGE_PIXELS },
    limits: {
      maxUploadBytes: e.MAX_UPLOAD_BYTES,
      plateMaxUploadBytes: e.PLATE_MAX_UPLOAD_BYTES,
      uploadMemoryBytes: e.UPLOAD_MEMORY_BYTES,
      uploadRatePerSecond: e.UPLOAD_RATE_PER_SECOND,
      recognitionRatePerSecond: e.RECOGNITION_RATE_PER_SECOND,
    },
    camera: {
      uploadIntervalSeconds: e.CAMERA_UPLOAD_INTERVAL_SECONDS,
      offlineAfterSeconds: e.CAMERA_OFFLINE_AFTER_SECONDS,
      alertGroupWindowSeconds: e.ALERT_GROUP_WINDOW_SECONDS,
      obstructionConfirmations: e.OBSTRUCTION_CONFIRMATIONS,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    mqtt: e.MQTT_URL
      ? { url: e.MQTT_URL, caFile: e.MQTT_CA_FILE, prefix: e.MQTT_TOPIC_PREFIX.replace(/\/+$/, ''), discoveryPrefix: e.MQTT_DISCOVERY ? e.MQTT_DISCOVERY_PREFIX.replace(/\/+$/, '') : undefined }
      : undefined,
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      disableAfterFailures: e.WEBHOOK_DISABLE_AFTER_FAILURES,
    },
    outboundAllow: e.OUTBOUND_ALLOW.split(',').map((s) => s.trim()).filter(Boolean),
    workers: { threads: e.WORKER_THREADS, jobLeaseSeconds: e.JOB_LEASE_SECONDS },
    vision: {
      inferenceThreads: e.INFERENCE_THREADS,
      ocrPrecision: parseOcrPrecision(e.OCR_PRECISION),
      ocrRecognizerThreads: e.OCR_RECOGNIZER_THREADS ?? 0,
      plateSearch: parsePlateSearch(e.PLATE_SEARCH),
      plateReader: parsePlateLineReader(e.PLATE_READER),
      plateDetector: parsePlateFinder(e.PLATE_DETECTOR),
      plateVehicles: parsePlateVehicles(e.PLATE_VEHICLES),
      stackReader: parseStackReader(e.STACK_READER),
      identifierReader: parseIdentifierReader(e.IDENTIFIER_READER),
      inferenceMemory: parseInferenceMemory(e.INFERENCE_MEMORY),
    },
    plateHistory: { retentionDays: e.PLATE_HISTORY_DAYS, keepImages: e.PLATE_HISTORY_IMAGES, visitGapSeconds: e.PLATE_VISIT_GAP_SECONDS },
    role: e.ROLE,
    profile: e.VIGIL_PROFILE,
    onprem: { licenseKey: e.LICENSE_KEY, maxCalls: e.MAX_CALLS },
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    runMigrations: e.RUN_MIGRATIONS,
  };
}

function databaseFrom(url: string | undefined, dataDir: string): Config['database'] {
  if (!url) return { kind: 'sqlite', file: path.join(dataDir, 'vigil.db') };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\//, '');
    return { kind: 'sqlite', file: file === ':memory:' ? file : path.resolve(file) };
  }
  return { kind: 'postgres', url };
}

function pickDefined(obj: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}
