import cliProgress from 'cli-progress';

/** How far an export or a restore is, file by file. */
export interface Progress {
  begin(file: string, rows: number): void;
  advance(rows: number): void;
  end(): void;
}

export const NO_PROGRESS: Progress = { begin() {}, advance() {}, end() {} };

/**
 * Progress on stderr (stdout is the command's answer): a bar redrawn in place on a terminal, plain
 * lines otherwise (a log file, CI), one when a file begins, every tenth of it and when it ends.
 */
export function stderrProgress(verb: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { stream, format: `${verb} {file} [{bar}] {percentage}% {value}/{total} rows`, hideCursor: true, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    );
    let running = false;
    return {
      begin(file, rows) {
        if (running) bar.stop();
        bar.start(rows, 0, { file });
        running = true;
      },
      advance: (rows) => bar.increment(rows),
      end() {
        if (running) bar.stop();
        running = false;
      },
    };
  }
  let file = '';
  let total = 0;
  let done = 0;
  let shown = 0;
  const line = () => stream.write(`${verb} ${file}: ${done}/${total} rows\n`);
  return {
    begin(f, rows) {
      file = f;
      total = rows;
      done = shown = 0;
      line();
    },
    advance(rows) {
      done += rows;
      if (total && Math.floor((done * 10) / total) > Math.floor((shown * 10) / total) && done < total) {
        shown = done;
        line();
      }
    },
    end() {
      if (file && done !== shown) line();
      file = '';
    },
  };
}
