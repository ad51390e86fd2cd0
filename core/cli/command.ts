import type { Kernel } from '../kernel.ts';

export interface CommandInput {
  /** Positional arguments after the command's words. */
  args: string[];
  /** `--name value` and `--flag` options (`--format` is taken by the CLI itself). */
  flags: Record<string, string | boolean>;
}

/**
 * One `billing` command, as data: its words, a usage line, and what it does. `run` returns the
 * machine-readable result (printed as JSON with `--format json`); `text` renders it for people.
 */
/**
 * The options a command takes with a value (`--email <e>`), so that the value is not read as a
 * positional argument. Without this, an unknown `--name value` is a boolean followed by a positional.
 */
export type CommandOptions = Record<string, { type: 'string' | 'boolean' }>;

export interface Command {
  words: string[];
  usage: string;
  options?: CommandOptions;
  /** Number of required positional arguments. */
  arity?: number;
  /** The server command owns the process; every other command boots without HTTP or jobs. */
  serves?: boolean;
  run(kernel: Kernel, input: CommandInput): Promise<unknown>;
  text?(result: any): string;
}

/** Renders rows as an aligned table (the default format of list commands). */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}
