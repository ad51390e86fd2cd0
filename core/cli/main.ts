import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { Kernel } from '../kernel.ts';
import { createLogger } from '../log.ts';
import pino from 'pino';
import type { Command } from './command.ts';
import { coreCommands } from './commands/core-commands.ts';
import { documentCommands } from './commands/document-commands.ts';
import { identityCommands } from './commands/identity-commands.ts';

/** Every command of `billing`; modules append theirs. */
export const COMMANDS: Command[] = [...coreCommands, ...identityCommands, ...documentCommands];

function usage(): string {
  return ['Usage:', ...COMMANDS.map((c) => `  ${c.usage} [--format json]`)].join('\n');
}

function find(positionals: string[]): { command: Command; args: string[] } | null {
  const candidates = COMMANDS.filter((c) => c.words.every((w, i) => positionals[i] === w));
  const best = candidates.sort((a, b) => b.words.length - a.words.length)[0];
  return best ? { command: best, args: positionals.slice(best.words.length) } : null;
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: false, options: { format: { type: 'string' }, help: { type: 'boolean' } } });
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    return 2;
  }
  let { positionals, values } = parsed;
  let found = find(positionals);
  const declared = found?.command.options;
  if (found && declared) {
    try {
      ({ positionals, values } = parseArgs({
        args: argv, allowPositionals: true, strict: false,
        options: { format: { type: 'string' }, help: { type: 'boolean' }, ...declared },
      }));
    } catch (err) {
      process.stderr.write(`Error: ${(err as Error).message}\n`);
      return 2;
    }
    found = { command: found.command, args: positionals.slice(found.command.words.length) };
  }
  if (!found || values.help) {
    (found || values.help ? process.stdout : process.stderr).write(usage() + '\n');
    return found || values.help ? 0 : 2;
  }
  const { command, args } = found;
  if (args.length < (command.arity ?? 0)) {
    process.stderr.write(`Error: usage: ${command.usage}\n`);
    return 2;
  }
  const format = values.format === 'json' ? 'json' : 'text';
  const config = loadConfig();

  if (command.serves) {
    const kernel = await Kernel.boot(config, { serve: true });
    const stop = async (signal: string) => {
      kernel.log.info({ signal }, 'shutting down');
      await kernel.stop();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
    return -1; // keep running
  }

  // The CLI's stdout is its answer; its log lines go to stderr, warnings and worse only.
  const kernel = await Kernel.boot(config, { log: createLogger(process.env.LOG_LEVEL ?? 'warn', pino.destination(2)) });
  try {
    const flags = Object.fromEntries(Object.entries(values).filter(([k]) => k !== 'format' && k !== 'help')) as Record<string, string | boolean>;
    const result = await command.run(kernel, { args, flags });
    process.stdout.write((format === 'json' ? JSON.stringify(result) : command.text ? command.text(result) : JSON.stringify(result, null, 2)) + '\n');
    return 0;
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message.split('\n')[0]}\n`);
    return 1;
  } finally {
    await kernel.stop();
  }
}
