import type { Command } from 'commander';
import { presentLicense } from '../http/routes/camera-monitoring/presenters.js';
import { presentWebhook } from '../http/routes/webhooks/webhooks.routes.js';
import { errors } from '../services/errors.js';
import type { CliContext } from './context.js';

const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString());

/** The command group `name` registered by another module (accounts, licenses, tokens, webhooks). */
function group(program: Command, name: string): Command {
  const found = program.commands.find((c) => c.name() === name);
  if (!found) throw new Error(`no command group ${name}`);
  return found;
}

/** Deleting an account or a license cannot be undone: the command asks for --yes. */
function confirmed(yes: boolean | undefined, what: string): void {
  if (!yes) throw errors.badRequest(`Not deleting ${what} without --yes: it deletes everything it owns, stored images included, for good.`, 'confirmation_required');
}

/** list and delete beside each admin group's create: what an operator looks up before changing
 * anything, and how it goes. */
export function registerListCommands(program: Command, ctx: CliContext): void {
  group(program, 'accounts').command('list').description('every account, oldest first').addOption(ctx.jsonOption())
    .action(async () => {
      const accounts = await ctx.withContainer((c) => c.accounts.list());
      const rows = accounts.map((a) => ({ id: a.id, email: a.email, features: a.features, created: iso(a.createdAt) }));
      ctx.print(rows, rows.map((a) => `${a.id} ${a.email} [${a.features.join(',')}]`).join('\n') || '(no accounts)');
    });

  group(program, 'licenses').command('list').description('the camera monitoring licenses of an account, most recent first')
    .requiredOption('--account <email>', 'owner e-mail').addOption(ctx.jsonOption())
    .action(async (o: { account: string }) => {
      const licenses = await ctx.withContainer(async (c) => c.licenses.list((await c.accounts.requireByEmail(o.account)).id));
      const rows = licenses.map(presentLicense);
      ctx.print(rows, licenses.map((l) => `${l.id} ${l.code} (${l.size} cameras, expires ${iso(l.expiration)})`).join('\n') || '(no licenses)');
    });

  group(program, 'accounts').command('delete')
    .description('delete an account and everything it owns: licenses, cameras, logs, stored images (their files too), tokens, webhooks, usage')
    .requiredOption('--email <email>', 'account e-mail').option('--yes', 'confirm: nothing of it can be recovered').addOption(ctx.jsonOption())
    .action(async (o: { email: string; yes?: boolean }) => {
      confirmed(o.yes, `account ${o.email}`);
      const removed = await ctx.withContainer((c) => c.accounts.remove(o.email));
      ctx.print({ deleted: removed.id, images: removed.images }, `account ${removed.id} <${o.email}> deleted, with ${removed.images} stored images`);
    });

  group(program, 'licenses').command('delete')
    .description('delete a license with its cameras, their logs and stored images (their files too)')
    .requiredOption('--account <email>', 'owner e-mail').argument('<id>', 'the license id (licenses list)')
    .option('--yes', 'confirm: nothing of it can be recovered').addOption(ctx.jsonOption())
    .action(async (id: string, o: { account: string; yes?: boolean }) => {
      confirmed(o.yes, `license ${id}`);
      const removed = await ctx.withContainer(async (c) => c.licenses.remove((await c.accounts.requireByEmail(o.account)).id, Number(id)));
      ctx.print({ deleted: Number(id), images: removed.images }, `license ${id} deleted, with ${removed.images} stored images`);
    });

  group(program, 'tokens').command('list').description('the active API tokens of an account (their first characters only)')
    .requiredOption('--account <email>', 'owner e-mail').addOption(ctx.jsonOption())
    .action(async (o: { account: string }) => {
      const tokens = await ctx.withContainer(async (c) => c.dashboard.dashboard.tokens((await c.accounts.requireByEmail(o.account)).id));
      const rows = tokens.map((t) => ({ id: t.id, prefix: t.token_prefix, created: iso(t.created_at), last_used: iso(t.last_used_at) }));
      ctx.print(rows, rows.map((t) => `${t.id} ${t.prefix}... created ${t.created}, last used ${t.last_used ?? 'never'}`).join('\n') || '(no tokens)');
    });

  const webhooks = group(program, 'webhooks');
  webhooks.command('list').description('the webhook targets of an account, most recent first')
    .requiredOption('--account <email>', 'owner e-mail').addOption(ctx.jsonOption())
    .action(async (o: { account: string }) => {
      const rows = (await ctx.withContainer(async (c) => c.notifications.webhooks.list((await c.accounts.requireByEmail(o.account)).id))).map(presentWebhook);
      ctx.print(rows, rows.map((w) => `${w.id} ${w.family} (${w.format}) -> ${w.url}${w.active ? '' : ' [disabled]'}`).join('\n') || '(no webhooks)');
    });
  webhooks.command('delete').description('delete a webhook target and its delivery history')
    .requiredOption('--account <email>', 'owner e-mail').argument('<id>', 'the webhook id (webhooks list)').addOption(ctx.jsonOption())
    .action(async (id: string, o: { account: string }) => {
      await ctx.withContainer(async (c) => c.notifications.webhooks.remove((await c.accounts.requireByEmail(o.account)).id, Number(id)));
      ctx.print({ deleted: Number(id) }, `webhook ${id} deleted`);
    });
}
