import fs from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { parsePlateLines } from '../domain/plates/plate-keys.js';
import { WATCHLIST_TAGS, type WatchlistView } from '../services/recognition/watchlist.service.js';
import type { CliContext } from './context.js';

const line = (l: WatchlistView) => `${l.id} ${l.name} (${l.tag}${l.fuzzy ? ', fuzzy' : ''}): ${l.plates.length} plates`;

/** The plates of --plates (comma-separated) and --file (one per line, a note after a comma). */
async function platesFrom(o: { plates?: string; file?: string }): Promise<Array<{ plate: string; note?: string }>> {
  const fromList = (o.plates ?? '').split(',').map((p) => p.trim()).filter(Boolean).map((plate) => ({ plate }));
  const fromFile = o.file ? parsePlateLines(await fs.readFile(o.file, 'utf8')) : [];
  return [...fromList, ...fromFile];
}

/** watchlists list, create, set-plates, delete: the plate lists each read is checked against. */
export function registerWatchlistCommands(program: Command, ctx: CliContext): void {
  const watchlists = program.command('watchlists').description('named plate lists each read is checked against');
  watchlists.command('list').description('the watchlists of an account')
    .requiredOption('--account <email>', 'owner e-mail').addOption(ctx.jsonOption())
    .action(async (o: { account: string }) => {
      const lists = await ctx.withContainer(async (c) => c.watchlists.list((await c.accounts.requireByEmail(o.account)).id));
      ctx.print(lists, lists.map(line).join('\n') || '(no watchlists)');
    });
  watchlists.command('create').description('create a watchlist; matches go to plate-watchlist webhooks')
    .requiredOption('--account <email>', 'owner e-mail')
    .requiredOption('--name <name>', 'its name, unique in the account')
    .addOption(new Option('--tag <tag>', 'what it is for').choices([...WATCHLIST_TAGS]).default('alert'))
    .option('--fuzzy', 'plates one character off match too')
    .option('--plates <list>', 'comma-separated plates')
    .option('--file <file>', 'a file of plates, one per line, a note after a comma')
    .addOption(ctx.jsonOption())
    .action(async (o: { account: string; name: string; tag: (typeof WATCHLIST_TAGS)[number]; fuzzy?: boolean; plates?: string; file?: string }) => {
      const plates = await platesFrom(o);
      const list = await ctx.withContainer(async (c) => c.watchlists.create((await c.accounts.requireByEmail(o.account)).id, { name: o.name, tag: o.tag, fuzzy: Boolean(o.fuzzy), plates }));
      ctx.print(list, line(list));
    });
  watchlists.command('set-plates').description('replace the plates of a watchlist')
    .requiredOption('--account <email>', 'owner e-mail').argument('<id>', 'the watchlist id (watchlists list)')
    .option('--plates <list>', 'comma-separated plates').option('--file <file>', 'a file of plates, one per line, a note after a comma')
    .addOption(ctx.jsonOption())
    .action(async (id: string, o: { account: string; plates?: string; file?: string }) => {
      const plates = await platesFrom(o);
      const list = await ctx.withContainer(async (c) => c.watchlists.replacePlates((await c.accounts.requireByEmail(o.account)).id, Number(id), plates));
      ctx.print(list, line(list));
    });
  watchlists.command('delete').description('delete a watchlist')
    .requiredOption('--account <email>', 'owner e-mail').argument('<id>', 'the watchlist id (watchlists list)').addOption(ctx.jsonOption())
    .action(async (id: string, o: { account: string }) => {
      await ctx.withContainer(async (c) => c.watchlists.remove((await c.accounts.requireByEmail(o.account)).id, Number(id)));
      ctx.print({ deleted: Number(id) }, `watchlist ${id} deleted`);
    });
}
