import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults to the embedded mode', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.host).toBe('0.0.0.0');
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.publicUrl).toBe('http://localhost:8080');
    expect(c.database).toEqual({ kind: 'sqlite', file: path.resolve('./data/vigil.db') });
    expect(c.camera.uploadIntervalSeconds).toBe(900);
    expect(c.limits.maxUploadBytes).toBe(10 * 1024 * 1024);
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://vigil.example.com/' }).publicUrl).toBe('https://vigil.example.com');
  });

  it('turns MQTT on with MQTT_URL, Home Assistant discovery with it unless MQTT_DISCOVERY=false', () => {
    expect(loadConfig({}).mqtt).toBeUndefined();
    expect(loadConfig({ MQTT_URL: 'mqtts://u:p@broker:8883', MQTT_TOPIC_PREFIX: 'yard/vigil/' }).mqtt).toEqual({
      url: 'mqtts://u:p@broker:8883', caFile: undefined, prefix: 'yard/vigil', discoveryPrefix: 'homeassistant',
    });
    expect(loadConfig({ MQTT_URL: 'mqtt://broker', MQTT_DISCOVERY: 'false' }).mqtt?.discoveryPrefix).toBeUndefined();
    expect(() => loadConfig({ MQTT_URL: 'tcp://broker' })).toThrow(/MQTT_URL="tcp:\/\/broker": must start with mqtt:\/\//);
    expect(() => loadConfig({ MQTT_URL: 'mqtt://broker', MQTT_TOPIC_PREFIX: 'vigil/#' })).toThrow(/MQTT_TOPIC_PREFIX/);
  });

  it('selects PostgreSQL from DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1/vigil' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@127.0.0.1/vigil',
    });
  });

  it('accepts the OCR graph variants in any case', () => {
    expect(() => loadConfig({ OCR_PRECISION: ' Fused ' })).not.toThrow();
    expect(() => loadConfig({ OCR_PRECISION: 'fp32' })).not.toThrow();
  });

  it('accepts any recogniser thread count from 0 (the worker thread itself)', () => {
    expect(() => loadConfig({ OCR_RECOGNIZER_THREADS: '0' })).not.toThrow();
    expect(() => loadConfig({ OCR_RECOGNIZER_THREADS: '2' })).not.toThrow();
  });

  it('hands the vision settings to the worker pools as one typed object', () => {
    expect(loadConfig({}).vision).toMatchObject({ ocrPrecision: 'fused', ocrRecognizerThreads: 0, plateSearch: 'every-plate', plateReader: 'trained', plateDetector: 'trained', plateVehicles: 'asked', stackReader: 'trained', identifierReader: 'trained', inferenceMemory: 'arena' });
    expect(loadConfig({ INFERENCE_THREADS: '3', OCR_PRECISION: 'fp32', OCR_RECOGNIZER_THREADS: '2', PLATE_SEARCH: 'first-sure', PLATE_READER: 'ppocr', PLATE_DETECTOR: 'trained', PLATE_VEHICLES: 'always', STACK_READER: 'ppocr', IDENTIFIER_READER: 'ppocr', INFERENCE_MEMORY: 'lean' }).vision)
      .toEqual({ inferenceThreads: 3, ocrPrecision: 'fp32', ocrRecognizerThreads: 2, plateSearch: 'first-sure', plateReader: 'ppocr', plateDetector: 'trained', plateVehicles: 'always', stackReader: 'ppocr', identifierReader: 'ppocr', inferenceMemory: 'lean' });
    expect(loadConfig({ PLATE_VEHICLES: 'head' }).vision.plateVehicles).toBe('head');
    expect(() => loadConfig({ PLATE_VEHICLES: 'sometimes' })).toThrow(/PLATE_VEHICLES/);
    expect(() => loadConfig({ INFERENCE_MEMORY: 'small' })).toThrow(/INFERENCE_MEMORY/);
  });

  it('accepts both plate searches', () => {
    expect(() => loadConfig({ PLATE_SEARCH: 'first-sure' })).not.toThrow();
    expect(() => loadConfig({ PLATE_SEARCH: 'every-plate' })).not.toThrow();
    expect(() => loadConfig({ PLATE_READER: 'trained' })).not.toThrow();
    expect(() => loadConfig({ PLATE_READER: 'ppocr' })).not.toThrow();
    expect(loadConfig({ PLATE_READER: 'trained-fp32' }).vision.plateReader).toBe('trained-fp32');
  });

  it('runs the identifier reader in 8 bits unless told to run its float graph', () => {
    expect(loadConfig({}).vision.identifierReader).toBe('trained');
    expect(loadConfig({ IDENTIFIER_READER: 'trained-fp32' }).vision.identifierReader).toBe('trained-fp32');
    expect(() => loadConfig({ STACK_READER: 'trained-fp32' })).toThrowError(/STACK_READER=/);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['PUBLIC_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
    ['OCR_PRECISION', 'int8'],
    ['OCR_RECOGNIZER_THREADS', 'two'],
    ['PLATE_SEARCH', 'first'],
    ['PLATE_READER', 'tesseract'],
    ['PLATE_DETECTOR', 'yolo'],
    ['STACK_READER', 'tesseract'],
    ['IDENTIFIER_READER', 'tesseract'],
    ['OCR_RECOGNIZER_THREADS', '-1'],
  ])('names the bad variable %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrowError(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrowError(new RegExp(`${name}=`));
  });
});
