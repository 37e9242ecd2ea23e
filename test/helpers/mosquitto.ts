import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { freePort } from './processes.js';

/** Debian's broker (`apt-get install mosquitto`; .ci/run installs it). */
export const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));
/** What a TLS broker's certificates are made with. */
export const OPENSSL = ['/usr/bin/openssl', '/bin/openssl'].some((p) => existsSync(p));

export interface Broker {
  /** `mqtt://127.0.0.1:PORT`, or `mqtts://` with TLS. */
  url: string;
  /** The CA file that signed a TLS broker's certificate. */
  caFile?: string;
  stop(): Promise<void>;
  /** Starts it again on the same port, with the sessions and retained messages it saved. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface BrokerOptions {
  /** Refuse anonymous clients; accept this user. */
  user?: { name: string; password: string };
  /** Listen with TLS, on a certificate for 127.0.0.1 signed by a CA made here. */
  tls?: boolean;
}

/** A real mosquitto on a free port of its own, persistent across `stop()`/`start()`. */
export async function startBroker(options: BrokerOptions = {}): Promise<Broker> {
  if (!MOSQUITTO) throw new Error('mosquitto is not installed (apt-get install mosquitto)');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-mqtt-'));
  const port = await freePort();
  const lines = [
    `listener ${port} 127.0.0.1`,
    `persistence true`,
    `persistence_location ${dir}/`,
    // Started as root (CI), mosquitto would drop to a user that cannot write the folder.
    'user root',
    'log_dest none',
  ];
  if (options.user) {
    const file = path.join(dir, 'passwords');
    execFileSync('mosquitto_passwd', ['-b', '-c', file, options.user.name, options.user.password], { stdio: 'ignore' });
    lines.push('allow_anonymous false', `password_file ${file}`);
  } else {
    lines.push('allow_anonymous true');
  }
  let caFile: string | undefined;
  if (options.tls) {
    caFile = makeCertificates(dir);
    lines.push(`cafile ${caFile}`, `certfile ${dir}/server.crt`, `keyfile ${dir}/server.key`);
  }
  const conf = path.join(dir, 'mosquitto.conf');
  await fs.writeFile(conf, lines.join('\n') + '\n');
  let child: ChildProcess | undefined;
  const broker: Broker = {
    url: `${options.tls ? 'mqtts' : 'mqtt'}://127.0.0.1:${port}`,
    ...(caFile ? { caFile } : {}),
    async start() {
      child = spawn(MOSQUITTO!, ['-c', conf], { stdio: 'ignore' });
      await waitForPort(port);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM'); // saves its persistence file
      await exited;
    },
    async close() {
      await broker.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
  await broker.start();
  return broker;
}

/** A subscriber that keeps every message it receives, in order. With `session`, its
 * subscription and the messages published while it is away survive its broker's restart. */
export async function subscriber(broker: Broker, topic: string, options: { session?: string; user?: { name: string; password: string } } = {}) {
  const client: MqttClient = await mqtt.connectAsync(broker.url, {
    reconnectPeriod: 100,
    ...(options.session ? { clientId: options.session, clean: false } : {}),
    ...(options.user ? { username: options.user.name, password: options.user.password } : {}),
    ...(broker.caFile ? { ca: await fs.readFile(broker.caFile) } : {}),
  });
  const received: Array<{ topic: string; payload: string; retain: boolean }> = [];
  client.on('message', (t, payload, packet) => received.push({ topic: t, payload: payload.toString(), retain: packet.retain }));
  await client.subscribeAsync(topic, { qos: 1 });
  return {
    received,
    /** The messages on topics matching `pattern`, once there are at least `count` of them. */
    async waitFor(pattern: RegExp, count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hits = received.filter((m) => pattern.test(m.topic));
        if (hits.length >= count) return hits;
        if (Date.now() > deadline) throw new Error(`${hits.length} of ${count} messages on ${pattern} within ${timeoutMs} ms; got topics ${[...new Set(received.map((m) => m.topic))].join(', ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => client.endAsync(true),
  };
}

function makeCertificates(dir: string): string {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=Vigil test CA', '-keyout', 'ca.key', '-out', 'ca.crt');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', 'server.key', '-out', 'server.csr');
  const ext = path.join(dir, 'ext.cnf');
  execFileSync('sh', ['-c', `printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > ${ext}`]);
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', ext, '-out', 'server.crt');
  return path.join(dir, 'ca.crt');
}

async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`mosquitto did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
