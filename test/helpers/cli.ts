import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { FIXTURE_PLUGINS } from './kernel.ts';

const BIN = resolve(import.meta.dirname, '../../bin/billing.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `billing` command in its own process against the given database. */
export function billing(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((res) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, BILLING_PLUGIN_DIRS: FIXTURE_PLUGINS, ...env },
      },
      (err, stdout, stderr) => {
        res({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });
}
