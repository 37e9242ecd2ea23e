import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, errors } from '../services/errors.js';

export interface UploadForm {
  /** Text fields; a repeated field keeps every value in order. */
  fields: Map<string, string[]>;
  files: Map<string, { bytes: Buffer; filename: string | undefined }>;
}

/** Reads a whole multipart form into memory within `maxFileBytes` per file (413 above it).
 * Only one file per field name is accepted. */
export async function readMultipart(request: FastifyRequest, maxFileBytes: number): Promise<UploadForm> {
  if (!request.isMultipart()) throw errors.badRequest('Send the request as multipart/form-data.', 'invalid_content_type');
  const form: UploadForm = { fields: new Map(), files: new Map() };
  try {
    await collectParts(request, maxFileBytes, form);
  } catch (err) {
    if (err instanceof AppError || (err as { code?: string }).code?.startsWith('FST_')) throw err;
    // The multipart parser's own complaints (no boundary, truncated part, broken header).
    throw errors.badRequest(`The multipart body is malformed: ${(err as Error).message}.`, 'invalid_multipart');
  }
  return form;
}

async function collectParts(request: FastifyRequest, maxFileBytes: number, form: UploadForm): Promise<void> {
  for await (const part of request.parts({ limits: { fileSize: maxFileBytes, files: 4, fields: 32, fieldSize: Math.ceil(maxFileBytes * 1.4) } })) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.file.truncated) throw errors.payloadTooLarge(maxFileBytes);
      if (form.files.has(part.fieldname)) throw errors.badRequest(`Send only one file as "${part.fieldname}".`, 'duplicate_field');
      form.files.set(part.fieldname, { bytes, filename: part.filename || undefined });
    } else {
      const value = typeof part.value === 'string' ? part.value : String(part.value);
      form.fields.set(part.fieldname, [...(form.fields.get(part.fieldname) ?? []), value]);
    }
  }
}

/** A single-valued text field: 400 when repeated. */
export function singleField(form: UploadForm, name: string): string | undefined {
  const values = form.fields.get(name);
  if (!values || values.length === 0) return undefined;
  if (values.length > 1) throw errors.badRequest(`Send "${name}" only once.`, 'duplicate_field');
  return values[0];
}
