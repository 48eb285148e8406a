import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../../src/cli/program/build';

/**
 * docs/COMMANDS.md's command table against commander's own list: every command (and subcommand) has a
 * row whose first cell names it and exactly its options, and every row is a real command. A new
 * command or option without its row fails here (the table had lost `clusters rebuild`,
 * `retention` and `credits --boilerplate`).
 */
const COMMANDS_DOC = readFileSync(path.join(__dirname, '../../../docs/COMMANDS.md'), 'utf8');

/** Rows of the table under "| command | what it does |": command path -> long options in its first cell. */
function readmeTable(): Map<string, string[]> {
  const lines = COMMANDS_DOC.split('\n');
  const start = lines.findIndex((l) => /^\| command \| what it does \|/.test(l));
  expect(start).toBeGreaterThan(0);
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const first = /^\|\s*`([^`]+)`/.exec(line)?.[1];
    if (!first) throw new Error(`a row of the command table without a command in backticks: ${line.slice(0, 80)}`);
    const words: string[] = [];
    for (const w of first.split(/\s+/)) {
      if (!/^[a-z][a-z-]*$/.test(w)) break;
      words.push(w);
    }
    const name = words.join(' ');
    if (rows.has(name)) throw new Error(`two rows for \`${name}\``);
    rows.set(name, [...new Set(first.match(/--[a-z][a-z-]*/g) ?? [])].sort());
  }
  return rows;
}

/** Commander's commands: each leaf, and each command with options of its own, with its long options. */
function programCommands(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (cmd: Command, prefix: string) => {
    for (const sub of cmd.commands) {
      const name = `${prefix}${sub.name()}`;
      const options = sub.options
        .map((o) => o.long)
        .filter((o): o is string => !!o && o !== '--help' && o !== '--version');
      if (sub.commands.length === 0 || options.length > 0) out.set(name, [...new Set(options)].sort());
      walk(sub, `${name} `);
    }
  };
  walk(buildProgram(), '');
  return out;
}

describe("docs/COMMANDS.md's command table is commander's", () => {
  const readme = readmeTable();
  const program = programCommands();

  it('has a row for every command and subcommand, and no row for a command that does not exist', () => {
    expect([...readme.keys()].sort()).toEqual([...program.keys()].sort());
  });

  it("names each command's options, all of them and no other", () => {
    const mismatched = [...program]
      .filter(([name, opts]) => JSON.stringify(readme.get(name)) !== JSON.stringify(opts))
      .map(([name, opts]) => ({ name, commander: opts, readme: readme.get(name) }));
    expect(mismatched).toEqual([]);
  });
});
