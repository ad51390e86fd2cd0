import { OwnedRegistry } from '../owned-registry.ts';

export interface CommandInput {
  /** Positional arguments after the command's words. */
  args: string[];
  /** `--name value` and `--flag` options (`--format` is taken by the CLI itself). */
  flags: Record<string, string | boolean>;
}

/**
 * The options a command takes with a value (`--email <e>`), so that the value is not read as a
 * positional argument. Without this, an unknown `--name value` is a boolean followed by a positional.
 */
export type CommandOptions = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
// with `multiple`, the flag's value arrives as an array of strings (read it as unknown)

/**
 * One `billing` command, as data: its words, a usage line, and what it does. Modules and plugins
 * declare theirs (`commands`), so a plugin's commands exist while it is active. `run` returns the
 * machine-readable result (printed as JSON with `--format json`); `text` renders it for people.
 */
export interface Command {
  words: string[];
  usage: string;
  options?: CommandOptions;
  /** Number of required positional arguments. */
  arity?: number;
  run(input: CommandInput): Promise<unknown>;
  text?(result: any): string;
}

/** Renders rows as an aligned table (the default format of list commands). */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}

/** The commands of the loaded modules and plugins, by their words. */
export class CommandRegistry {
  readonly commands = new OwnedRegistry<Command>('command');

  add(owner: string, command: Command): void {
    this.commands.add(owner, command.words.join(' '), command);
  }

  removeOwner(owner: string): void {
    this.commands.removeOwner(owner);
  }

  /** The command whose words begin `positionals` (the longest such), and the arguments after them. */
  find(positionals: string[]): { command: Command; args: string[] } | null {
    const best = this.commands
      .values()
      .filter((c) => c.words.every((w, i) => positionals[i] === w))
      .sort((a, b) => b.words.length - a.words.length)[0];
    return best ? { command: best, args: positionals.slice(best.words.length) } : null;
  }

  list(): Command[] {
    return this.commands.values().sort((a, b) => a.words.join(' ').localeCompare(b.words.join(' ')));
  }
}
