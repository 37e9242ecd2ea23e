import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

const require = createRequire(import.meta.url);

let ready: Promise<typeof tf> | null = null;

/** Starts the tfjs WASM backend once per thread, with the .wasm files read from node_modules
 * (never fetched from a CDN: the service must run offline). */
export function tfjsWasm(): Promise<typeof tf> {
  ready ??= (async () => {
    const dist = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
    setWasmPaths(`${dist}/`);
    // Threads would compete with the worker pool for the same cores; one thread per worker.
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    await tf.setBackend('wasm');
    await tf.ready();
    return tf;
  })();
  return ready;
}

/** An IOHandler reading a tfjs graph model (model.json + weight shards) from the file system. */
export function fileModelHandler(modelJsonPath: string): tf.io.IOHandler {
  return {
    async load() {
      const json = JSON.parse(await readFile(modelJsonPath, 'utf8')) as tf.io.ModelJSON;
      const dir = dirname(modelJsonPath);
      const specs: tf.io.WeightsManifestEntry[] = [];
      const buffers: Buffer[] = [];
      for (const group of json.weightsManifest) {
        specs.push(...group.weights);
        for (const p of group.paths) buffers.push(await readFile(join(dir, p)));
      }
      const all = Buffer.concat(buffers);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
        weightSpecs: specs,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
      };
    },
  };
}

/** Loads a graph model from disk on the WASM backend. */
export async function loadFileGraphModel(modelJsonPath: string): Promise<GraphModel> {
  await tfjsWasm();
  return loadGraphModel(fileModelHandler(modelJsonPath));
}

export { tf };
