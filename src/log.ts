import type pino from 'pino';
import type { LogFormat } from './wire/protocol';
import { createLogger as createFormattedLogger } from './wire/log-format';

export type Logger = pino.Logger;

/**
 * The root logger: JSON lines on stdout, or readable lines on a terminal (src/wire/log-format.ts).
 * No `redact` option: it cost ~6 µs a line (more than the rest of the line) on the thread every
 * request crosses, and nothing logged is secret — request lines carry no headers, and the
 * configuration holds no credentials. Anything secret that must be logged one day gets masked
 * where it is logged.
 */
export function createLogger(level: string, format: LogFormat = 'json', name = 'server'): Logger {
  return createFormattedLogger(level, name, format, {});
}
