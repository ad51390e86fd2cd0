import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines to stdout. Secrets never reach a log line: anything under these keys is censored, wherever
 * it sits in the logged object, and request logging records only method, path and status (no query
 * string, where access keys travel).
 */
const REDACT = [
  'password',
  'pwd',
  'secret',
  'token',
  'key',
  'access_key',
  'authorization',
  'cookie',
  'apiKey',
  'api_key',
  'signature',
  'card',
  '_wpnonce',
  'nonce',
];

export function createLogger(level = 'info', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'billing' },
      redact: { paths: REDACT.flatMap((k) => [k, `*.${k}`]), censor: '[redacted]' },
    },
    destination ?? pino.destination({ sync: false }),
  );
}

/** A logger that drops everything: used by the CLI (whose stdout is its answer) and by quiet tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
