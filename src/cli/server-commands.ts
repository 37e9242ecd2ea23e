import { Command, Option } from 'commander';
import { migrateToLatest, openDatabase } from '../storage/db/database.js';
import type { CliContext } from './context.js';

/** serve, worker, migrate, export, import: running and moving an installation. */
export function registerServerCommands(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('start the HTTP API (and, with role all, the workers)')
    .addOption(new Option('--role <role>', 'which parts run in this process').choices(['all', 'api', 'worker']))
    .option('--onprem', 'on-premise plate reader profile (no token, /info/)')
    .option('--port <port>', 'port to listen on (PORT)')
    .option('--host <host>', 'address to bind (HOST)')
    .option('--license-key <key>', 'on-premise license key (LICENSE_KEY)')
    .option('--max-calls <n>', 'on-premise maximum calls (MAX_CALLS)')
    .addOption(ctx.jsonOption())
    .action(async (o: { role?: string; onprem?: boolean; port?: string; host?: string; licenseKey?: string; maxCalls?: string }) => {
      const { serve } = await import('../main.js');
      await serve(ctx.config({
        ROLE: o.role, PORT: o.port, HOST: o.host, LICENSE_KEY: o.licenseKey, MAX_CALLS: o.maxCalls,
        VIGIL_PROFILE: o.onprem ? 'onprem' : undefined,
      }));
      ctx.keepAlive();
    });

  program
    .command('worker')
    .description('run only the background workers (same as serve --role worker)')
    .addOption(ctx.jsonOption())
    .action(async () => {
      const { serve } = await import('../main.js');
      await serve(ctx.config({ ROLE: 'worker' }));
      ctx.keepAlive();
    });

  program
    .command('migrate')
    .description('apply pending database migrations')
    .addOption(ctx.jsonOption())
    .action(async () => {
      // No query timeout: a migration may build an index on a large table.
      const db = openDatabase(ctx.config().database, { queryTimeoutMs: null });
      try {
        const applied = await migrateToLatest(db);
        ctx.print({ applied }, applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
      } finally {
        await db.destroy();
      }
    });

  program
    .command('export')
    .description('write every row and image of this installation to a directory')
    .requiredOption('--out <dir>', 'directory to write (created)')
    .addOption(ctx.jsonOption())
    .action(async (o: { out: string }) => {
      const { exportInstallation } = await import('../storage/transfer/transfer.js');
      const counts = await ctx.withContainer((c) => exportInstallation(c.db, c.blobs, o.out));
      ctx.print(counts, `exported ${Object.values(counts.tables).reduce((a, b) => a + b, 0)} rows and ${counts.blobs} images to ${o.out}`);
    });

  program
    .command('import')
    .description('load an export into this (empty) installation, e.g. PostgreSQL with DATABASE_URL')
    .requiredOption('--from <dir>', 'directory written by vigil export')
    .addOption(ctx.jsonOption())
    .action(async (o: { from: string }) => {
      const { importInstallation } = await import('../storage/transfer/transfer.js');
      const counts = await ctx.withContainer((c) => importInstallation(c.db, c.blobs, o.from));
      ctx.print(counts, `imported ${Object.values(counts.tables).reduce((a, b) => a + b, 0)} rows and ${counts.blobs} images`);
    });
}
