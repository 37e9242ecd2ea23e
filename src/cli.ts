import { Command, CommanderError } from 'commander';
import { ConfigError, type Config } from './config/config.js';
import { registerAdminCommands } from './cli/admin-commands.js';
import { cliContext, type CliIo } from './cli/context.js';
import { registerListCommands } from './cli/list-commands.js';
import { registerOfflineCommands } from './cli/offline-commands.js';
import { registerServerCommands } from './cli/server-commands.js';
import { registerWatchlistCommands } from './cli/watchlist-commands.js';
import { AppError } from './services/errors.js';
import { VERSION } from './version.js';

export type { CliIo };

const defaultIo: CliIo = {
  env: process.env,
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  errIsTTY: process.stderr.isTTY,
};

/** Runs one CLI invocation. Every command takes --json and then prints exactly one JSON
 * document on stdout (on failure: {"error": {"code", "message"}}). Returns the exit code, or
 * undefined for long-running commands (serve, worker) that keep the process alive. */
export async function runCli(argv: string[], io: CliIo = defaultIo): Promise<number | undefined> {
  let json = argv.includes('--json');
  let exitCode: number | undefined = 0;
  const ctx = cliContext(io, () => json, () => (exitCode = undefined));
  const program = new Command('vigil')
    .description('Vigil: self-hosted vision API for vehicle yards, parking and fleet cameras')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  registerServerCommands(program, ctx);
  registerAdminCommands(program, ctx);
  registerOfflineCommands(program, ctx);
  registerListCommands(program, ctx);
  registerWatchlistCommands(program, ctx);

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

export type { Config };
