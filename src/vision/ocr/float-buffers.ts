/** Float32 buffers lent for one model run and handed back after it: a detector input is
 * megabytes, and a new one per pass adds to the garbage collector's work. A request is served
 * from the smallest buffer handed back that holds it (a view of its start: a plate's close-up
 * fits in a photo's), else from a new one; the few largest handed back are kept, up to
 * `maxKept` floats each (a 960 x 960 detector input; a 2048 px container photo's is not kept). */
export class FloatBufferPool {
  private readonly free: Float32Array[] = [];

  constructor(private readonly keep = 3, private readonly maxKept = 3 * 1024 * 1024) {}

  /** `length` floats with arbitrary contents: the caller writes every element. */
  readonly take = (length: number): Float32Array => {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const n = this.free[i]!.length;
      if (n >= length && (best < 0 || n < this.free[best]!.length)) best = i;
    }
    if (best < 0) return new Float32Array(length);
    return this.free.splice(best, 1)[0]!.subarray(0, length);
  };

  /** Hands back a buffer `take` lent, once nothing reads it any more. */
  give(lent: Float32Array): void {
    if (lent.buffer.byteLength > this.maxKept * Float32Array.BYTES_PER_ELEMENT) return;
    this.free.push(new Float32Array(lent.buffer, 0, lent.buffer.byteLength / Float32Array.BYTES_PER_ELEMENT));
    if (this.free.length > this.keep) {
      const smallest = this.free.reduce((s, b, i) => (b.length < this.free[s]!.length ? i : s), 0);
      this.free.splice(smallest, 1);
    }
  }
}
