import tty from 'node:tty';
import pino from 'pino';
import type PinoPretty from 'pino-pretty';
import type { LogFormat } from './protocol';

/**
 * How the front end and the shards write their log lines (LOG_FORMAT): JSON lines for log
 * collectors, or pino-pretty's readable lines for a person at a terminal. Both sides use it so
 * that one server never mixes the two. Pretty lines are written synchronously: a terminal is
 * for watching a server by hand, where a line must not be lost on exit, not for load.
 */
export function createLogger(level: string, name: string, format: LogFormat, base: Record<string, unknown>): pino.Logger {
  const options = { level, name, base: { pid: process.pid, ...base } };
  if (format === 'json') return pino(options);
  // Loaded only here: JSON logging (a service, every test) does not pay for loading it in
  // every shard thread's start (35–175 ms measured), which the watchdog's first ping waits on.
  const pretty = require('pino-pretty') as typeof PinoPretty;
  // isatty(1) rather than process.stdout: a shard thread's process.stdout is a pipe to the main thread.
  return pino(options, pretty({ sync: true, singleLine: true, colorize: tty.isatty(1), ignore: 'pid,hostname' }));
}

/** LOG_FORMAT unset: pretty on a terminal, JSON otherwise (a pipe, a file, a service manager). */
export function defaultLogFormat(): LogFormat {
  return tty.isatty(1) ? 'pretty' : 'json';
}
