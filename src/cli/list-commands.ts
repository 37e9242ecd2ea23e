import type { Command } from 'commander';
import { presentLicense } from '../http/routes/camera-monitoring/presenters.js';
import { presentWebhook } from '../http/routes/webhooks/webhooks.routes.js';
import type { CliContext } from './context.js';

const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString());

/** The command group `name` registered by another module (accounts, licenses, tokens, webhooks). */
function group(program: Command, name: string): Command {
  const found = program.commands.find((c) => c.name() === name);
  if (!found) throw new Error(`no command group ${name}`);
  return found;
}

/** list (and, for webhooks, delete) beside each admin group's create: what an operator looks
 * up before changing anything. */
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
