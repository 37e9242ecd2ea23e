/** Builds a multipart/form-data body for app.inject with the platform's own FormData encoder. */
export async function multipartBody(
  fields: Record<string, string | string[] | { bytes: Buffer; filename?: string; type?: string } | undefined>,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (typeof value === 'string') form.append(name, value);
    else if (Array.isArray(value)) for (const v of value) form.append(name, v);
    else form.append(name, new Blob([value.bytes], { type: value.type ?? 'image/jpeg' }), value.filename ?? 'image.jpg');
  }
  const request = new Request('http://multipart.local/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}
