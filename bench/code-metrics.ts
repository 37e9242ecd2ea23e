/**
 * npm run bench:code-metrics [-- --casts N]
 *
 * The size figures issue 27 asked to follow, over the tracked non-test TypeScript files in `src`,
 * read with the TypeScript compiler's parser: files over 300 lines, functions over 80 lines (each
 * named), `as` casts other than `as const` (and the N files with most of them), and which route
 * plugins take the whole `Container`.
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { flag } from './lib/stats.js';

const LONG_FILE = 300;
const LONG_FUNCTION = 80;
const files = execSync('git ls-files src', { encoding: 'utf8' }).split('\n').filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

const longFiles: string[] = [];
const longFunctions: string[] = [];
const castsPerFile = new Map<string, number>();
const containerPlugins: string[] = [];

for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length;
  if (lines > LONG_FILE) longFiles.push(`${lines} ${file}`);
  if (file.startsWith('src/http/routes/') && /\bContainer\b/.test(text) && /from '.*container\.js'/.test(text)) containerPlugins.push(file);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === 'const')) {
      castsPerFile.set(file, (castsPerFile.get(file) ?? 0) + 1);
    }
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = 'name' in node && node.name ? node.name.getText() : '(anonymous)';
      if (end - start + 1 > LONG_FUNCTION) longFunctions.push(`${end - start + 1} ${file} ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const casts = [...castsPerFile.values()].reduce((a, b) => a + b, 0);
console.log(`${files.length} files read`);
console.log(`files over ${LONG_FILE} lines: ${longFiles.length}${longFiles.map((l) => `\n  ${l}`).join('')}`);
console.log(`functions over ${LONG_FUNCTION} lines: ${longFunctions.length}${longFunctions.map((l) => `\n  ${l}`).join('')}`);
console.log(`as casts (not as const): ${casts}`);
for (const [file, n] of [...castsPerFile].sort((a, b) => b[1] - a[1]).slice(0, Number(flag('casts', '10')))) console.log(`  ${n} ${file}`);
console.log(`route plugins importing the Container: ${containerPlugins.length}${containerPlugins.map((f) => `\n  ${f}`).join('')}`);
