import { spawn } from 'node:child_process';

/**
 * Runs a fixture script as a real child process and SIGKILLs it once it has printed `done <n>` lines
 * `killAfter` times (each such line follows a commit). Answers the numbers it printed: what was committed
 * before the kill, for a test to check that nothing of it is lost afterwards.
 */
export function runUntilKilled(script: string, args: string[], killAfter: number): Promise<number[]> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const seen: number[] = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        const n = /^done (\d+)$/.exec(line);
        if (n) seen.push(Number(n[1]));
        if (seen.length >= killAfter && !child.killed) child.kill('SIGKILL');
      }
    });
    child.on('error', rej);
    child.on('exit', () => res(seen));
  });
}
