#!/usr/bin/env node
// Entry for `npx vigil`: runs the compiled CLI (built by `npm ci` through the prepare script).
import { runCli } from '../dist/cli.js';

runCli(process.argv.slice(2)).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { console.error(err instanceof Error ? err.message : err); process.exitCode = 1; },
);
