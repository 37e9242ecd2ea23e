/** Float32 buffers lent for one model run and handed back after it: a detector input is
 * megabytes, and a new one per pass (zeroed, faulted in, then collected) cost more CPU than
 * filling it. A buffer is reused only at exactly the length asked; the last few handed back
 * are kept. */
export class FloatBufferPool {
  private readonly free: Float32Array[] = [];

  constructor(private readonly keep = 4) {}

  /** A buffer of `length` floats with arbitrary contents: the caller writes every element. */
  readonly take = (length: number): Float32Array => {
    const i = this.free.findIndex((b) => b.length === length);
    return i < 0 ? new Float32Array(length) : this.free.splice(i, 1)[0]!;
  };

  /** Hands a buffer back once nothing reads it any more. */
  give(buffer: Float32Array): void {
    this.free.push(buffer);
    if (this.free.length > this.keep) this.free.shift();
  }
}
