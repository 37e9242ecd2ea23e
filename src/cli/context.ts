import { Option } from 'commander';
import { loadConfig, type Config, type Env } from '../config/config.js';
import { createContainer, type Container } from '../container.js';
import { progressReporter } from './files.js';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Standard error is a terminal: long runs show their progress there. */
  errIsTTY?: boolean;
}

export type ConfigOverrides = Partial<Record<keyof Env, string>>;

/** What every command group gets from runCli: output in the invocation's format, the config,
 * and the store for one admin command. */
export interface CliContext {
  /** One JSON document with --json, else the human line. */
  print(value: unknown, human: string): void;
  config(overrides?: ConfigOverrides): Config;
  /** Opens the store for one admin command and always closes it. */
  withContainer<T>(fn: (c: Container) => Promise<T>): Promise<T>;
  /** The --json option every command takes. */
  jsonOption(): Option;
  /** The command keeps the process alive (serve, worker): runCli returns no exit code. */
  keepAlive(): void;
  /** A tick per file of a long run, shown on a terminal (see progressReporter). */
  progress(total: number): () => void;
}

export function cliContext(io: CliIo, json: () => boolean, onKeepAlive: () => void): CliContext {
  const config = (overrides: ConfigOverrides = {}) => loadConfig(io.env, overrides);
  return {
    print: (value, human) => io.out(json() ? `${JSON.stringify(value)}\n` : `${human}\n`),
    config,
    async withContainer(fn) {
      const c = await createContainer(config());
      try {
        return await fn(c);
      } finally {
        await c.close();
      }
    },
    jsonOption: () => new Option('--json', 'print one JSON document on stdout'),
    keepAlive: onKeepAlive,
    progress: (total) => progressReporter(total, io.errIsTTY ? io.err : undefined),
  };
}
