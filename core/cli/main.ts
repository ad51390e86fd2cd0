import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { Kernel } from '../kernel.ts';
import { createLogger } from '../log.ts';
import type { CommandRegistry } from './command.ts';

const SERVE_USAGE = 'billing serve';

function usage(commands: CommandRegistry | null): string {
  const lines = [SERVE_USAGE, ...(commands?.list().map((c) => c.usage) ?? [])];
  return ['Usage:', ...lines.map((u) => `  ${u} [--format json]`)].join('\n');
}

/**
 * `billing <command>`: `serve` runs the server; every other command boots the kernel without HTTP,
 * jobs or the outbox, finds the command among those the core modules and the active plugins declare,
 * runs it and stops. Its answer goes to stdout (JSON with `--format json`), failures to stderr as one
 * line, and the exit code says which.
 */
export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: false,
      options: { format: { type: 'string' }, help: { type: 'boolean' } },
    });
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    return 2;
  }
  const config = loadConfig();

  if (parsed.positionals[0] === 'serve') {
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
    const found = kernel.commands.find(parsed.positionals);
    if (!found || parsed.values.help) {
      (found || parsed.values.help ? process.stdout : process.stderr).write(usage(kernel.commands) + '\n');
      return found || parsed.values.help ? 0 : 2;
    }
    const { command } = found;
    let { positionals, values } = parsed;
    if (command.options) {
      try {
        ({ positionals, values } = parseArgs({
          args: argv,
          allowPositionals: true,
          strict: false,
          options: { format: { type: 'string' }, help: { type: 'boolean' }, ...command.options },
        }));
      } catch (err) {
        process.stderr.write(`Error: ${(err as Error).message}\n`);
        return 2;
      }
    }
    const args = positionals.slice(command.words.length);
    if (args.length < (command.arity ?? 0)) {
      process.stderr.write(`Error: usage: ${command.usage}\n`);
      return 2;
    }
    const format = values.format === 'json' ? 'json' : 'text';
    const flags = Object.fromEntries(Object.entries(values).filter(([k]) => k !== 'format' && k !== 'help')) as Record<
      string,
      string | boolean
    >;
    const result = await command.run({ args, flags });
    const out = format === 'json' ? JSON.stringify(result) : command.text ? command.text(result) : JSON.stringify(result, null, 2);
    process.stdout.write(out + '\n');
    return 0;
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message.split('\n')[0]}\n`);
    return 1;
  } finally {
    await kernel.stop();
  }
}
