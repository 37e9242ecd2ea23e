/** heic-decode 2.x (libheif compiled to WebAssembly) ships no types: the one call Vigil makes. */
declare module 'heic-decode' {
  /** The first image of a HEIC/HEIF file as RGBA pixels; rejects a file that is not HEIC. */
  export default function decode(input: { buffer: Uint8Array }): Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
}
