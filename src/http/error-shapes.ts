/** Each API family answers errors in its own shape (see docs/compatibility.md, "Errors"):
 * - camera monitoring and everything else: `{"message", "code"}`, the spec's upload error shape;
 * - recognition (OCR, VIN, trailer, plates): `{"detail", "status_code", "code"}`, the shape the
 *   existing plate-reader clients parse (their 429 body is exactly this);
 * - the CodeProject.AI-compatible endpoint: `{"success": false, "error", "code"}`, that server's
 *   shape (`code` its HTTP status), with Vigil's machine code as `reason`. */
export type ErrorFamily = 'camera' | 'recognition' | 'codeproject';

export function errorBody(family: ErrorFamily, status: number, code: string, message: string) {
  if (family === 'codeproject') return { success: false, error: message, code: status, reason: code };
  return family === 'recognition' ? { detail: message, status_code: status, code } : { message, code };
}
