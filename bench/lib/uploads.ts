/** Drives camera uploads through real HTTP: the same loop for every benchmark that measures
 * upload throughput (bench:camera-api, bench:scale). */
export interface UploadRun {
  accepted: number;
  rejected: number;
  /** Seconds spent uploading. */
  elapsed: number;
}

export interface DriveOptions {
  /** Base URLs of the API processes; clients are spread over them round-robin. */
  urls: string[];
  token: string;
  frame: Buffer;
  seconds: number;
  concurrency: number;
  /** Distinct cameras cycled through (default 25 per client), so every upload after a camera's
   * first is compared with its reference, as in production. */
  fleet?: number;
}

export async function driveUploads(o: DriveOptions): Promise<UploadRun> {
  const fleet = o.fleet ?? o.concurrency * 25;
  let next = 0;
  let accepted = 0;
  let rejected = 0;
  const started = Date.now();
  const deadline = started + o.seconds * 1000;
  await Promise.all(Array.from({ length: o.concurrency }, async (_, client) => {
    const url = o.urls[client % o.urls.length]!;
    while (Date.now() < deadline) {
      const form = new FormData();
      form.append('upload', new Blob([o.frame], { type: 'image/jpeg' }), 'frame.jpg');
      form.append('camera_id', `CAM-${next++ % fleet}`);
      const res = await fetch(`${url}/v1/camera-monitoring/create-log/`, { method: 'POST', body: form, headers: { authorization: `Token ${o.token}` } });
      await res.arrayBuffer();
      if (res.status === 201) accepted++;
      else rejected++;
    }
  }));
  return { accepted, rejected, elapsed: (Date.now() - started) / 1000 };
}

/** Polls `count()` until it reaches `target` or `timeoutMs` passes; returns the last count. */
export async function waitForCount(count: () => Promise<number>, target: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let n = await count();
  while (n < target && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    n = await count();
  }
  return n;
}
