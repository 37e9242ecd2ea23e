import { Command, CommanderError, Option } from 'commander';
import { ConfigError, loadConfig, type Config, type Env } from './config/config.js';
import { createContainer, type Container } from './container.js';
import { parseFeatures, FEATURES } from './domain/features.js';
import { presentLicense } from './http/routes/camera-monitoring/presenters.js';
import { AppError } from './services/errors.js';
import { migrateToLatest, openDatabase } from './storage/db/database.js';
import { VERSION } from './version.js';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
}

const defaultIo: CliIo = {
  env: process.env,
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
};

type Overrides = Partial<Record<keyof Env, string>>;

/** Runs one CLI invocation. Every command takes --json and then prints exactly one JSON
 * document on stdout (on failure: {"error": {"code", "message"}}). Returns the exit code, or
 * undefined for long-running commands (serve, worker) that keep the process alive. */
export async function runCli(argv: string[], io: CliIo = defaultIo): Promise<number | undefined> {
  let json = argv.includes('--json');
  let exitCode: number | undefined = 0;
  const print = (value: unknown, human: string) => io.out(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
  const config = (overrides: Overrides = {}) => loadConfig(io.env, overrides);
  /** Opens the store for one admin command and always closes it. */
  const withContainer = async <T>(fn: (c: Container) => Promise<T>): Promise<T> => {
    const c = await createContainer(config());
    try {
      return await fn(c);
    } finally {
      await c.close();
    }
  };

  const program = new Command('vigil')
    .description('Vigil: self-hosted vision API for vehicle yards, parking and fleet cameras')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  const jsonOption = () => new Option('--json', 'print one JSON document on stdout');

  program
    .command('serve')
    .description('start the HTTP API (and, with role all, the workers)')
    .addOption(new Option('--role <role>', 'which parts run in this process').choices(['all', 'api', 'worker']))
    .option('--onprem', 'on-premise plate reader profile (no token, /info/)')
    .option('--port <port>', 'port to listen on (PORT)')
    .option('--host <host>', 'address to bind (HOST)')
    .option('--license-key <key>', 'on-premise license key (LICENSE_KEY)')
    .option('--max-calls <n>', 'on-premise maximum calls (MAX_CALLS)')
    .addOption(jsonOption())
    .action(async (o: { role?: string; onprem?: boolean; port?: string; host?: string; licenseKey?: string; maxCalls?: string }) => {
      const { serve } = await import('./main.js');
      await serve(config({
        ROLE: o.role, PORT: o.port, HOST: o.host, LICENSE_KEY: o.licenseKey, MAX_CALLS: o.maxCalls,
        VIGIL_PROFILE: o.onprem ? 'onprem' : undefined,
      }));
      exitCode = undefined;
    });

  program
    .command('worker')
    .description('run only the background workers (same as serve --role worker)')
    .addOption(jsonOption())
    .action(async () => {
      const { serve } = await import('./main.js');
      await serve(config({ ROLE: 'worker' }));
      exitCode = undefined;
    });

  program
    .command('migrate')
    .description('apply pending database migrations')
    .addOption(jsonOption())
    .action(async () => {
      // No query timeout: a migration may build an index on a large table.
      const db = openDatabase(config().database, { queryTimeoutMs: null });
      try {
        const applied = await migrateToLatest(db);
        print({ applied }, applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
      } finally {
        await db.destroy();
      }
    });

  program
    .command('export')
    .description('write every row and image of this installation to a directory')
    .requiredOption('--out <dir>', 'directory to write (created)')
    .addOption(jsonOption())
    .action(async (o: { out: string }) => {
      const { exportInstallation } = await import('./storage/transfer/transfer.js');
      const counts = await withContainer((c) => exportInstallation(c.db, c.blobs, o.out));
      print(counts, `exported ${Object.values(counts.tables).reduce((a, b) => a + b, 0)} rows and ${counts.blobs} images to ${o.out}`);
    });

  program
    .command('import')
    .description('load an export into this (empty) installation, e.g. PostgreSQL with DATABASE_URL')
    .requiredOption('--from <dir>', 'directory written by vigil export')
    .addOption(jsonOption())
    .action(async (o: { from: string }) => {
      const { importInstallation } = await import('./storage/transfer/transfer.js');
      const counts = await withContainer((c) => importInstallation(c.db, c.blobs, o.from));
      print(counts, `imported ${Object.values(counts.tables).reduce((a, b) => a + b, 0)} rows and ${counts.blobs} images`);
    });

  const accounts = program.command('accounts').description('manage accounts');
  accounts
    .command('create')
    .requiredOption('--email <email>', 'owner e-mail')
    .option('--features <list>', `comma-separated features (${FEATURES.join(',')})`, FEATURES.join(','))
    .addOption(jsonOption())
    .action(async (o: { email: string; features: string }) => {
      const features = parseFeatures(o.features);
      const { account, token } = await withContainer((c) => c.accounts.create(o.email, features));
      print({ id: account.id, email: account.email, token }, `account ${account.id} <${account.email}>\ntoken: ${token}`);
    });

  accounts
    .command('set-password')
    .description('set the dashboard password (from --password or the first line of stdin)')
    .requiredOption('--email <email>', 'account e-mail')
    .option('--password <password>', 'the new password (at least 10 characters)')
    .addOption(jsonOption())
    .action(async (o: { email: string; password?: string }) => {
      const { readPasswordFrom, setAccountPassword } = await import('./services/dashboard/index.js');
      const password = o.password ?? (await readPasswordFrom(process.stdin));
      const result = await withContainer((c) => setAccountPassword(c, { email: o.email, password }));
      print(result, `Password set for ${result.email}.`);
    });

  const licenses = program.command('licenses').description('manage camera monitoring licenses');
  licenses
    .command('create')
    .requiredOption('--account <email>', 'owner e-mail')
    .requiredOption('--size <n>', 'maximum number of cameras')
    .option('--expires <date>', 'expiration day YYYY-MM-DD (default: one year from now)')
    .option('--va-type <type>', 'integration type', 'api')
    .addOption(jsonOption())
    .action(async (o: { account: string; size: string; expires?: string; vaType: string }) => {
      const expiration = o.expires ? parseDay(o.expires) : new Date(Date.now() + 365 * 86_400_000);
      const license = await withContainer(async (c) => {
        const account = await c.accounts.requireByEmail(o.account);
        return c.licenses.create({ accountId: account.id, size: Number(o.size), expiration, vaType: o.vaType });
      });
      print(presentLicense(license), `license ${license.id} ${license.code} (${license.size} cameras, expires ${new Date(license.expiration).toISOString()})`);
    });

  const tokens = program.command('tokens').description('manage API tokens');
  tokens
    .command('create')
    .requiredOption('--account <email>', 'owner e-mail')
    .addOption(jsonOption())
    .action(async (o: { account: string }) => {
      const token = await withContainer((c) => c.tokens.issueForEmail(o.account));
      print({ token }, token);
    });
  tokens
    .command('revoke')
    .argument('<token>', 'the token to revoke')
    .addOption(jsonOption())
    .action(async (token: string) => {
      await withContainer((c) => c.tokens.revoke(token));
      print({ revoked: true }, 'revoked');
    });

  const webhooks = program.command('webhooks').description('manage webhook targets');
  webhooks
    .command('create')
    .requiredOption('--account <email>', 'owner e-mail')
    .requiredOption('--url <url>', 'target URL (http or https)')
    .option('--family <family>', 'camera-monitoring, ocr or plate-reader', 'camera-monitoring')
    .option('--format <format>', 'json, or multipart (plate-reader: the image as upload)', 'json')
    .addOption(jsonOption())
    .action(async (o: { account: string; url: string; family: string; format: string }) => {
      const { webhook, secret } = await withContainer((c) => c.notifications.webhooks.createForEmail(o.account, { url: o.url, family: o.family, format: o.format }));
      print(
        { id: webhook.id, url: webhook.url, family: webhook.family, format: webhook.payload_format, active: webhook.active === 1, secret },
        `webhook ${webhook.id} ${webhook.family} (${webhook.payload_format}) -> ${webhook.url}\nsigning secret: ${secret}`,
      );
    });

  const cameras = program.command('cameras').description('camera settings');
  cameras
    .command('thresholds')
    .description('show or set the anomaly thresholds of a camera (scores 0..1)')
    .requiredOption('--account <email>', 'owner e-mail')
    .requiredOption('--serial <serial>', 'camera serial')
    .option('--blur <n>', 'Blur threshold')
    .option('--obstruction <n>', 'Obstruction threshold')
    .option('--glare <n>', 'Glare threshold')
    .option('--position-change <n>', 'Position change threshold')
    .option('--review-band <n>', 'width of the under_review band below each threshold')
    .addOption(jsonOption())
    .action(async (o: { account: string; serial: string; blur?: string; obstruction?: string; glare?: string; positionChange?: string; reviewBand?: string }) => {
      const result = await withContainer(async (c) => {
        const account = await c.accounts.requireByEmail(o.account);
        const camera = await c.camera.cameras.requireBySerial(account.id, o.serial);
        const thresholds: Record<string, number> = {};
        for (const [key, value] of [['Blur', o.blur], ['Obstruction', o.obstruction], ['Glare', o.glare], ['Position change', o.positionChange]] as const) {
          if (value !== undefined) thresholds[key] = Number(value);
        }
        return c.camera.cameras.applyThresholds(camera, { thresholds, reviewBand: o.reviewBand === undefined ? undefined : Number(o.reviewBand) });
      });
      print({ thresholds: result.thresholds, review_band: result.reviewBand }, JSON.stringify({ ...result.thresholds, review_band: result.reviewBand }));
    });

  const quota = program.command('quota').description('monthly call allowances');
  quota
    .command('set')
    .requiredOption('--account <email>', 'owner e-mail')
    .requiredOption('--family <family>', 'ocr, vin, trailer-id or plate-reader')
    .requiredOption('--total-calls <n>', 'calls allowed per calendar month')
    .addOption(jsonOption())
    .action(async (o: { account: string; family: string; totalCalls: string }) => {
      const totalCalls = Number(o.totalCalls);
      await withContainer(async (c) => {
        const account = await c.accounts.requireByEmail(o.account);
        await c.usage.setTotalCalls(account.id, o.family, totalCalls);
      });
      print({ account: o.account, family: o.family, total_calls: totalCalls }, `${o.family}: ${totalCalls} calls per month for ${o.account}`);
    });

  program
    .command('ocr')
    .description('read identifiers from images offline; prints the API responses')
    .requiredOption('--type <type>', 'vin, trailer_id, odometer, shipping_container or boat_reg_number')
    .argument('<images...>', 'images to read')
    .addOption(jsonOption())
    .action(async (images: string[], o: { type: string }) => {
      const { ocrFiles } = await import('./recognition-cli.js');
      const results = (await ocrFiles(o.type, images)) as Array<{ filename: string; results: Array<{ identifier: { props: { code: Array<{ value: string }> } } }> }>;
      print(results, results.map((r) => `${r.filename}: ${r.results.map((x) => x.identifier.props.code[0]?.value).join(', ') || '(nothing)'}`).join('\n'));
    });

  program
    .command('plates')
    .description('find and read licence plates offline; prints the hosted API responses')
    .argument('<images...>', 'images to read')
    .option('--regions <list>', 'comma-separated region codes (us,br,gb...)', '')
    .option('--mmc', 'add colour, orientation and make/model fields')
    .addOption(jsonOption())
    .action(async (images: string[], o: { regions: string; mmc?: boolean }) => {
      const { plateFiles } = await import('./recognition-cli.js');
      const regions = o.regions.split(',').map((r) => r.trim().toLowerCase()).filter(Boolean);
      const results = (await plateFiles(images, { regions, mmc: Boolean(o.mmc) })) as Array<{ filename: string; results: Array<{ plate: string }> }>;
      print(results, results.map((r) => `${r.filename}: ${r.results.map((x) => x.plate).join(', ') || '(no plate)'}`).join('\n'));
    });

  program
    .command('analyze-camera')
    .description('score images against a reference offline, as the service would')
    .requiredOption('--reference <file>', 'the reference image')
    .argument('<images...>', 'images to analyse')
    .addOption(jsonOption())
    .action(async (images: string[], o: { reference: string }) => {
      const { analyzeFilesForCli } = await import('./vision/camera-health/analyze-files.js');
      const results = await analyzeFilesForCli(o.reference, images);
      const human = results.map((r) => `${r.file}: ${r.status}${Object.keys(r.anomalies).length ? ` ${JSON.stringify(r.anomalies)}` : ''}${r.detail ? ` (${r.detail})` : ''}`).join('\n');
      print(results, human);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) return 0;
      if (json) io.out(`${JSON.stringify({ error: { code: err.code, message: err.message } })}\n`);
      return err.exitCode || 2;
    }
    const { code, message } = describeError(err);
    if (json) io.out(`${JSON.stringify({ error: { code, message } })}\n`);
    io.err(`vigil: ${message}\n`);
    json = false;
    return 1;
  }
}

function describeError(err: unknown): { code: string; message: string } {
  if (err instanceof AppError) return { code: err.code, message: err.message };
  if (err instanceof ConfigError) return { code: 'invalid_config', message: err.message };
  return { code: 'error', message: err instanceof Error ? err.message : String(err) };
}

function parseDay(day: string): Date {
  const date = new Date(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
    throw new AppError(400, 'invalid_date', `Not a date (YYYY-MM-DD): ${day}`);
  }
  return date;
}

export type { Config };
