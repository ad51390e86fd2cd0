/**
 * The process's flags, less those about its entry point: a worker inherits them, and one started from
 * `node --input-type=module -e …` would otherwise refuse to load its file.
 */
export function workerExecArgv(): string[] {
  const out: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (['--input-type', '-e', '--eval', '-p', '--print'].includes(a)) i++;
    else if (!a.startsWith('--input-type=') && !a.startsWith('--eval=') && !a.startsWith('--print=')) out.push(a);
  }
  return out;
}
