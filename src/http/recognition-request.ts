import type { FastifyRequest } from 'fastify';
import type { ImageSource } from '../services/image-input.js';
import { errors } from '../services/errors.js';
import { readMultipart } from './multipart.js';

/** A recognition request as the clients send it: multipart, JSON or urlencoded, with the image
 * as a file, base64 or a URL. `fields` keeps repeated values (e.g. `regions`). */
export interface RecognitionRequest {
  source: ImageSource | undefined;
  fields: Map<string, string[]>;
}

/** `fileFields`: the form's file fields that may hold the image, first found wins; `*` stands
 * for the form's first file of any name. */
export async function readRecognitionRequest(request: FastifyRequest, maxBytes: number, fileFields: readonly string[] = ['upload']): Promise<RecognitionRequest> {
  const fields = new Map<string, string[]>();
  let source: ImageSource | undefined;
  if (request.isMultipart()) {
    // Base64 in a text field is a third larger than the file it encodes.
    const form = await readMultipart(request, maxBytes);
    for (const [k, v] of form.fields) fields.set(k, v);
    const file = fileFields.map((name) => (name === '*' ? form.files.values().next().value : form.files.get(name))).find((f) => f !== undefined);
    if (file) source = { kind: 'bytes', bytes: file.bytes, filename: file.filename };
  } else if (request.body && typeof request.body === 'object') {
    for (const [k, v] of Object.entries(request.body)) {
      const values = (Array.isArray(v) ? v : [v]).filter((x) => x !== undefined && x !== null).map((x) => (typeof x === 'object' ? fieldJson(x) : String(x)));
      fields.set(k, values);
    }
  }
  if (!source) {
    const upload = fields.get('upload')?.[0];
    const uploadUrl = fields.get('upload_url')?.[0];
    if (upload) source = { kind: 'text', value: upload };
    else if (uploadUrl) source = { kind: 'url', url: uploadUrl };
  }
  fields.delete('upload');
  return { source, fields };
}

/** A JSON field (`config` sent as an object) as the text the form field would have held. A
 * value nested thousands deep overflows the stack of JSON.stringify: that is the caller's
 * doing, a 400, not a 500. */
function fieldJson(value: object): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (err instanceof RangeError) throw errors.badRequest('A field of the request is nested too deeply.', 'invalid_body');
    throw err;
  }
}
