import pino from 'pino';

export type Logger = pino.Logger;

export function createShardLogger(level: string, shardIndex: number): Logger {
  return pino({ level, name: 'shard', base: { pid: process.pid, shard: shardIndex } });
}
