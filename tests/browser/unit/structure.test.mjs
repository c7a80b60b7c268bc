// The player client's structure (issue 39): no JS file over 600 lines, no function over
// 80 lines, server messages dispatched by a table (no switch on the message type).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const JS = fileURLToPath(new URL('../../../web-static/js/', import.meta.url));
const FILE_MAX = 600;
const FUNCTION_MAX = 80;
const files = readdirSync(JS).filter((f) => f.endsWith('.js'));

// Strings, template literals, regex-free comments out, so braces inside them don't count.
function code(line) {
  return line
    .replace(/\\./g, '')
    .replace(/'[^']*'|"[^"]*"|`[^`]*`/g, '""')
    .replace(/\/\/.*$/, '');
}

const START = /^\s*(export\s+)?(async\s+)?function\b|^\s*(static\s+)?(async\s+)?(get\s+|set\s+)?[A-Za-z_$][\w$]*\s*\([^)]*\)\s*\{\s*$|=>\s*\{\s*$/;

/** [{name, lines}] for every function, method and braced arrow function of `text`. */
export function functionLengths(text) {
  const lines = text.split('\n').map(code);
  const out = [];
  lines.forEach((line, i) => {
    if (!START.test(line) || /^\s*(if|for|while|switch|catch)\b/.test(line)) return;
    let depth = 0;
    let opened = false;
    for (let j = i; j < lines.length; j++) {
      for (const ch of lines[j]) {
        if (ch === '{') { depth++; opened = true; }
        else if (ch === '}') depth--;
      }
      if (opened && depth <= 0) {
        out.push({ name: line.trim().slice(0, 60), at: i + 1, lines: j - i + 1 });
        return;
      }
    }
  });
  return out;
}

test('the measure sees a long function', () => {
  const long = `function f() {\n${'  x();\n'.repeat(90)}}\n`;
  assert.equal(functionLengths(long)[0].lines, 92);
  assert.equal(functionLengths('const g = () => {\n  if (a) {\n  }\n};\n')[0].lines, 4);
});

for (const f of files) {
  test(`${f}: at most ${FILE_MAX} lines, functions at most ${FUNCTION_MAX}`, () => {
    const text = readFileSync(join(JS, f), 'utf8');
    assert.ok(text.split('\n').length <= FILE_MAX + 1, `${f} has ${text.split('\n').length} lines`);
    const long = functionLengths(text).filter((fn) => fn.lines > FUNCTION_MAX);
    assert.deepEqual(long, [], `${f}: functions over ${FUNCTION_MAX} lines`);
  });
}

test('server messages go through the handler table, not a switch', () => {
  const text = readFileSync(join(JS, 'handlers.js'), 'utf8');
  assert.match(text, /export const HANDLERS = Object\.freeze\(\{/);
  assert.doesNotMatch(text, /switch\s*\(\s*msg\.t\s*\)/);
  for (const type of ['welcome', 'room', 'joined', 'left', 'chat', 'chatHistory', 'choose', 'choosing', 'turn',
    'hint', 'close', 'guessed', 'turnEnd', 'gameEnd', 'votekick', 'error']) {
    assert.match(text, new RegExp(`\\n  ${type}: `), `no handler for ${type}`);
  }
});

test('only store.js assigns to the player client\'s state', () => {
  for (const f of files.filter((x) => x !== 'store.js')) {
    const text = readFileSync(join(JS, f), 'utf8');
    if (!text.includes("from './store.js'")) continue; // the gallery and moderator pages keep their own
    assert.doesNotMatch(text, /\bstate\.[\w.]+\s*(=[^=]|\+\+|--|\+=|-=)/, `${f} writes the state`);
  }
});
