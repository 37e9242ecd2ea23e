import type { Command } from 'commander';
import { parseFeatures, FEATURES } from '../domain/features.js';
import { presentLicense } from '../http/routes/camera-monitoring/presenters.js';
import { AppError } from '../services/errors.js';
import type { CliContext } from './context.js';

/** Administration on the configured database, also while the server runs. */
export function registerAdminCommands(program: Command, ctx: CliContext): void {
  registerAccountCommands(program, ctx);
  registerSettingCommands(program, ctx);
}

/** accounts, licenses, tokens: who may call the API. */
function registerAccountCommands(program: Command, ctx: CliContext): void {
  const accounts = program.command('accounts').description('manage accounts');
  accounts
    .command('create')
    .requiredOption('--email <email>', 'owner e-mail')
    .option('--features <list>', `comma-separated features (${FEATURES.join(',')})`, FEATURES.join(','))
    .addOption(ctx.jsonOption())
    .action(async (o: { email: string; features: string }) => {
      const features = parseFeatures(o.features);
      const { account, token } = await ctx.withContainer((c) => c.accounts.create(o.email, features));
      ctx.print({ id: account.id, email: account.email, token }, `account ${account.id} <${account.email}>\ntoken: ${token}`);
    });

  accounts
    .command('set-password')
    .description('set the dashboard password (from --password or the first line of stdin)')
    .requiredOption('--email <email>', 'account e-mail')
    .option('--password <password>', 'the new password (at least 10 characters)')
    .addOption(ctx.jsonOption())
    .action(async (o: { email: string; password?: string }) => {
      const { readPasswordFrom, setAccountPassword } = await import('../services/dashboard/index.js');
      const password = o.password ?? (await readPasswordFrom(process.stdin));
      const result = await ctx.withContainer((c) => setAccountPassword(c.dashboard.sessions, { email: o.email, password }));
      ctx.print(result, `Password set for ${result.email}.`);
    });

  const licenses = program.command('licenses').description('manage camera monitoring licenses');
  licenses
    .command('create')
    .requiredOption('--account <email>', 'owner e-mail')
    .requiredOption('--size <n>', 'maximum number of cameras')
    .option('--expires <date>', 'expiration day YYYY-MM-DD (default: one year from now)')
    .option('--va-type <type>', 'integration type', 'api')
    .addOption(ctx.jsonOption())
    .action(async (o: { account: string; size: string; expires?: string; vaType: string }) => {
      const expiration = o.expires ? parseDay(o.expires) : new Date(Date.now() + 365 * 86_400_000);
      const license = await ctx.withContainer(async (c) => {
        const account = await c.accounts.requireByEmail(o.account);
        return c.licenses.create({ accountId: account.id, size: Number(o.size), expiration, vaType: o.vaType });
      });
      ctx.print(presentLicense(license), `license ${license.id} ${license.code} (${license.size} cameras, expires ${new Date(license.expiration).toISOString()})`);
    });

  const tokens = program.command('tokens').description('manage API tokens');
  tokens
    .command('create')
    .requiredOption('--account <email>', 'owner e-mail')
    .addOption(ctx.jsonOption())
    .action(async (o: { account: string }) => {
      const token = await ctx.withContainer((c) => c.tokens.issueForEmail(o.account));
      ctx.print({ token }, token);
    });
  tokens
    .command('revoke')
    .argument('<token>', 'the token to revoke')
    .addOption(ctx.jsonOption())
    .action(async (token: string) => {
      await ctx.withContainer((c) => c.tokens.revoke(token));
      ctx.print({ revoked: true }, 'revoked');
    });
}

/** webhooks, cameras, quota: what an account's calls do. */
function registerSettingCommands(program: Command, ctx: CliContext): void {
  const webhooks = program.command('webhooks').description('manage webhook targets');
  webhooks
    .command('create')
    .requiredOption('--account <email>', 'owner e-mail')
    .requiredOption('--url <url>', 'target URL (http or https)')
    .option('--family <family>', 'camera-monitoring, ocr, plate-reader, plate-visits or plate-watchlist', 'camera-monitoring')
    .option('--format <format>', 'json, or multipart (plate-reader: the image as upload)', 'json')
    .addOption(ctx.jsonOption())
    .action(async (o: { account: string; url: string; family: string; format: string }) => {
      const { webhook, secret } = await ctx.withContainer((c) => c.notifications.webhooks.createForEmail(o.account, { url: o.url, family: o.family, format: o.format }));
      ctx.print(
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
    .addOption(ctx.jsonOption())
    .action(async (o: { account: string; serial: string; blur?: string; obstruction?: string; glare?: string; positionChange?: string; reviewBand?: string }) => {
      const result = await ctx.withContainer(async (c) => {
        const account = await c.accounts.requireByEmail(o.account);
        const camera = await c.camera.cameras.requireBySerial(account.id, o.serial);
        const thresholds: Record<string, number> = {};
        for (const [key, value] of [['Blur', o.blur], ['Obstruction', o.obstruction], ['Glare', o.glare], ['Position change', o.positionChange]] as const) {
          if (value !== undefined) thresholds[key] = Number(value);
        }
        return c.camera.cameras.applyThresholds(camera, { thresholds, reviewBand: o.reviewBand === undefined ? undefined : Number(o.reviewBand) });
      });
      ctx.print({ thresholds: result.thresholds, review_band: result.reviewBand }, JSON.stringify({ ...result.thresholds, review_band: result.reviewBand }));
    });

  const quota = program.command('quota').description('monthly call allowances');
  quota
    .command('set')
    .requiredOption('--account <email>', 'owner e-mail')
    .requiredOption('--family <family>', 'ocr, vin, trailer-id or plate-reader')
    .requiredOption('--total-calls <n>', 'calls allowed per calendar month')
    .addOption(ctx.jsonOption())
    .action(async (o: { account: string; family: string; totalCalls: string }) => {
      const totalCalls = Number(o.totalCalls);
      await ctx.withContainer(async (c) => {
        const account = await c.accounts.requireByEmail(o.account);
        await c.usage.setTotalCalls(account.id, o.family, totalCalls);
      });
      ctx.print({ account: o.account, family: o.family, total_calls: totalCalls }, `${o.family}: ${totalCalls} calls per month for ${o.account}`);
    });
}

function parseDay(day: string): Date {
  const date = new Date(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
    throw new AppError(400, 'invalid_date', `Not a date (YYYY-MM-DD): ${day}`);
  }
  return date;
}
