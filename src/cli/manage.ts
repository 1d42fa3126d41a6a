import { ConfigError, loadConfig } from '../config';
import { CommandFailed, parseCommand, UsageError, type Command } from './command';
import { REALM_COMMANDS } from './realm-commands';
import { USER_COMMANDS } from './user-commands';
import { SCALE_COMMANDS, scaleCommand } from './scale';

/*
 * `npm run manage -- <command> [--realm R] [--json]` (issue 23 "Management CLI"). Commands that
 * change a realm go through the running server's admin socket when there is one, so its
 * clients hear of the change; without a server they work on the realm files. Every error is
 * one line on stderr and a non-zero exit status (2: a bad command line, 1: the command failed).
 */

const COMMANDS: Command[] = [...REALM_COMMANDS, ...USER_COMMANDS];

function usage(): string {
  const listed = [...COMMANDS, ...SCALE_COMMANDS];
  const width = Math.max(...listed.map((c) => c.name.length));
  return `usage: npm run manage -- <command> [options] [--realm R] [--json]

--realm R   the realm to work on (default: the default realm)
--json      print one JSON object instead of text
--help      this text; <command> --help for a command's

commands:
${listed.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}
`;
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(usage());
    return;
  }
  if (name === 'proxy-config' || name === 'move-realm') return scaleCommand(name, rest, loadConfig());
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command '${name}' (npm run manage -- --help lists them)`);
  const config = loadConfig();
  const ctx = parseCommand(command, rest, { dataDir: config.dataDir, externalHost: config.externalHost, placement: config.placement });
  if (ctx) await command.run(ctx);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const status = err instanceof UsageError || err instanceof ConfigError ? 2 : err instanceof CommandFailed ? err.exitStatus : 1;
  // One line: a message that spans lines (a config error lists its variables) is joined.
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`error: ${message.replace(/\s*\n\s*/g, '; ')}\n`);
  process.exit(status);
});
