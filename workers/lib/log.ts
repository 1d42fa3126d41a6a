import type pino from 'pino';
import type { LogFormat } from '../../src/wire/protocol';
import { createLogger } from '../../src/wire/log-format';

export type Logger = pino.Logger;

export function createShardLogger(level: string, shardIndex: number, format: LogFormat = 'json'): Logger {
  return createLogger(level, 'shard', format, { shard: shardIndex });
}
