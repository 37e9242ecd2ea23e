/** A connected region's bounds (x1, y1 exclusive) and its pixel count. */
export interface Component {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  pixels: number;
}

/**
 * The connected regions of a label image, in scan order of their first pixel: neighbouring
 * pixels (4- or 8-connected) with the same non-zero value form one region, so a mask of dark
 * ink (1) and light ink (2) gives the regions of each apart. With `regionOf`, each pixel of a
 * region gets that region's index in the result there (other pixels are left as they are).
 */
export function componentBoxes(labels: Uint8Array, width: number, height: number, connectivity: 4 | 8, regionOf?: Int32Array): Component[] {
  // Pixels not yet reached keep their label; a reached one is cleared (one array to test).
  const rest = labels.slice();
  const stack = scratchStack(labels.length);
  const diagonals = connectivity === 8;
  const found: Component[] = [];
  for (let start = 0; start < rest.length; start++) {
    const kind = rest[start]!;
    if (!kind) continue;
    rest[start] = 0;
    let top = 0;
    stack[top++] = start;
    let x0 = width, y0 = height, x1 = 0, y1 = 0, pixels = 0;
    while (top > 0) {
      const p = stack[--top]!;
      if (regionOf) regionOf[p] = found.length;
      const y = (p / width) | 0;
      const x = p - y * width;
      pixels++;
      if (x < x0) x0 = x;
      if (x >= x1) x1 = x + 1;
      if (y < y0) y0 = y;
      if (y >= y1) y1 = y + 1;
      const left = x > 0, right = x < width - 1;
      if (left && rest[p - 1] === kind) { rest[p - 1] = 0; stack[top++] = p - 1; }
      if (right && rest[p + 1] === kind) { rest[p + 1] = 0; stack[top++] = p + 1; }
      if (y > 0) {
        const q = p - width;
        if (rest[q] === kind) { rest[q] = 0; stack[top++] = q; }
        if (diagonals && left && rest[q - 1] === kind) { rest[q - 1] = 0; stack[top++] = q - 1; }
        if (diagonals && right && rest[q + 1] === kind) { rest[q + 1] = 0; stack[top++] = q + 1; }
      }
      if (y < height - 1) {
        const q = p + width;
        if (rest[q] === kind) { rest[q] = 0; stack[top++] = q; }
        if (diagonals && left && rest[q - 1] === kind) { rest[q - 1] = 0; stack[top++] = q - 1; }
        if (diagonals && right && rest[q + 1] === kind) { rest[q + 1] = 0; stack[top++] = q + 1; }
      }
    }
    found.push({ x0, y0, x1, y1, pixels });
  }
  return found;
}

/** One fill stack for every call on crops (each pixel is pushed at most once; the fill is
 * synchronous): a new one per crop was garbage of four bytes per pixel. Larger images get a
 * stack of their own, so a whole photo's is not kept. */
const KEPT_STACK = 1 << 20;
let stackBuffer = new Int32Array(0);
function scratchStack(size: number): Int32Array {
  if (size > KEPT_STACK) return new Int32Array(size);
  if (stackBuffer.length < size) stackBuffer = new Int32Array(Math.min(KEPT_STACK, Math.max(size, 2 * stackBuffer.length)));
  return stackBuffer;
}
