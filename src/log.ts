import pino from 'pino';

export type Logger = pino.Logger;

/** The root logger: JSON lines on stdout. Nothing in the config is secret today; if that
 * changes, add the key to `redact` here rather than masking at each call site. */
export function createLogger(level: string, name = 'server'): Logger {
  return pino({ level, name, base: { pid: process.pid }, redact: ['*.authorization', '*.password', '*.key'] });
}
