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
 * ink (1) and light ink (2) gives the regions of each apart.
 */
export function componentBoxes(labels: Uint8Array, width: number, height: number, connectivity: 4 | 8): Component[] {
  const seen = new Uint8Array(labels.length);
  const stack = new Int32Array(labels.length);
  const found: Component[] = [];
  for (let start = 0; start < labels.length; start++) {
    const kind = labels[start]!;
    if (!kind || seen[start]) continue;
    seen[start] = 1;
    let top = 0;
    stack[top++] = start;
    let x0 = width, y0 = height, x1 = 0, y1 = 0, pixels = 0;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      pixels++;
      if (x < x0) x0 = x;
      if (x >= x1) x1 = x + 1;
      if (y < y0) y0 = y;
      if (y >= y1) y1 = y + 1;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          if (connectivity === 4 && dx !== 0 && dy !== 0) continue;
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (labels[q] === kind && !seen[q]) {
            seen[q] = 1;
            stack[top++] = q;
          }
        }
      }
    }
    found.push({ x0, y0, x1, y1, pixels });
  }
  return found;
}
