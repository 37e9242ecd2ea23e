/**
 * npm run bench:mqtt [-- --events 2000 --rounds 3 --outage 500]
 *
 * MQTT events through Vigil's outbox to a real broker (Debian's mosquitto, started here on a
 * free port) and a subscriber on the same machine, embedded mode (SQLite, in-process worker):
 * 1. throughput: `--events` plate-read events accepted as fast as the caller can (the service
 *    call an API request makes, without the HTTP and recognition around it), timed from the
 *    first accept to the last message the subscriber receives; median of `--rounds`; beside it
 *    the baseline, the same messages published straight from one mqtt.js client at QoS 1 (three
 *    in flight, as the worker's delivery slots): what the outbox's durability costs;
 * 2. a broker outage: the broker stopped, `--outage` events accepted, the broker started again
 *    after 3 s; how many arrive (each once or more), how many are lost, and how long the
 *    catch-up took.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config.js';
import { createContainer } from '../src/container.js';
import mqtt from 'mqtt';
import { startBroker, subscriber } from '../test/helpers/mosquitto.js';
import { flag, median } from './lib/stats.js';

const events = Number(flag('events', '2000'));
const rounds = Number(flag('rounds', '3'));
const outage = Number(flag('outage', '500'));

const broker = await startBroker();
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-mqtt-bench-'));
const config = loadConfig({}, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', MQTT_URL: broker.url, WORKER_THREADS: '1' });
const container = await createContainer(config);
container.startWorkers();
const sub = await subscriber(broker, 'vigil/+/plates/+/read', { session: 'bench' });
const quiet = console.error;
console.error = (...args: unknown[]) => (String(args[0]).includes('MQTT') ? undefined : quiet(...args));

try {
  const { account } = await container.accounts.create('mqtt@example.com', ['plate-reader']);
  let seq = 0;
  const accept = (n: number) => {
    const ids: string[] = [];
    return {
      ids,
      run: async () => {
        for (let i = 0; i < n; i++) {
          const id = `ev${seq++}`;
          ids.push(id);
          await container.notifications.events.publish(account.id, {
            kind: 'plate.read', cameraId: 'bench',
            body: { camera_id: 'bench', timestamp: new Date().toISOString(), file_url: null, results: [{ plate: id, score: 0.9, region: { code: 'us' }, box: {} }] },
          });
        }
      },
    };
  };
  const plateOf = (m: { payload: string }) => JSON.parse(m.payload).results[0].plate as string;

  const rates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const before = sub.received.length;
    const batch = accept(events);
    const t0 = performance.now();
    await batch.run();
    const acceptedMs = performance.now() - t0;
    await sub.waitFor(/./, before + events, 300_000);
    const ms = performance.now() - t0;
    rates.push((events / ms) * 1000);
    console.log(`round ${r + 1}: ${events} events accepted in ${acceptedMs.toFixed(0)} ms, all received after ${ms.toFixed(0)} ms: ${((events / ms) * 1000).toFixed(0)} events/s`);
  }
  // Baseline: the same payloads from one client, no outbox, three publishes in flight.
  const direct = await mqtt.connectAsync(broker.url);
  const baseline: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const before = sub.received.length;
    const t0 = performance.now();
    const lanes = Array.from({ length: 3 }, async (_, lane) => {
      for (let i = lane; i < events; i += 3) {
        const body = { camera_id: 'bench', timestamp: new Date().toISOString(), file_url: null, results: [{ plate: `direct${r}-${i}`, score: 0.9, region: { code: 'us' }, box: {} }] };
        await direct.publishAsync(`vigil/${account.id}/plates/bench/read`, JSON.stringify(body), { qos: 1 });
      }
    });
    await Promise.all(lanes);
    await sub.waitFor(/./, before + events, 300_000);
    baseline.push((events / (performance.now() - t0)) * 1000);
  }
  await direct.endAsync();
  const [viaOutbox, straight] = [median(rates), median(baseline)];
  console.log(`throughput: median ${viaOutbox.toFixed(0)} events/s through the outbox, ${straight.toFixed(0)} published straight (baseline), ratio ${(viaOutbox / straight).toFixed(2)}; ${rounds} rounds of ${events}`);

  await broker.stop();
  const before = sub.received.length;
  const batch = accept(outage);
  await batch.run();
  await new Promise((r) => setTimeout(r, 3000));
  const t0 = performance.now();
  await broker.start();
  try {
    await sub.waitFor(/./, before + outage, 180_000);
  } catch {
    // counted below
  }
  const catchUp = performance.now() - t0;
  const mine = new Set(batch.ids);
  const got = sub.received.slice(before).map(plateOf).filter((id) => mine.has(id));
  const unique = new Set(got);
  console.log(`outage: ${outage} events accepted while the broker was down; after its restart ${unique.size} arrived (${got.length - unique.size} more than once), ${outage - unique.size} lost, in ${(catchUp / 1000).toFixed(1)} s`);
} finally {
  console.error = quiet;
  await sub.close();
  await container.close();
  await broker.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}
