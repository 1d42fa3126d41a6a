import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import type { AdminResult, OfflineMessage, OfflineTask, OfflineTaskData } from '../../src/wire/admin';
import { DEFAULT_REALM, REALM_NAME_PATTERN, realmFile, realmsDir } from '../../src/wire/realm-names';
import { Realm } from '../realm';
import { Renderer } from '../render/pool';
import { runAdminCommand } from './commands';
import { AdminError, type AdminHost } from './host';
import { checkRealmFile, type Progress } from './realm-files';
import { exportRealm, importRealm } from './realm-export';

const REALM_FILE_SUFFIX = '.sqlite3';

/**
 * The CLI's thread when no server runs (or for file commands that need none): it opens realm
 * files as a shard does, without actors or clients, runs the task and closes them again.
 */
class OfflineHost implements AdminHost {
  readonly serving = false;
  private readonly realms = new Map<string, Realm>();
  private readonly renderer = new Renderer(0);
  private readonly log = pino({ level: 'silent' });

  constructor(
    readonly dataDir: string,
    private readonly externalHost: string,
  ) {}

  realm(name: string): Realm | null {
    const open = this.realms.get(name);
    if (open) return open;
    const file = realmFile(this.dataDir, name);
    if (!REALM_NAME_PATTERN.test(name) || !fs.existsSync(file)) return null;
    const realm = new Realm(name, file, {
      externalHost: this.externalHost,
      isDefault: name === DEFAULT_REALM,
      log: this.log,
      renderer: this.renderer,
    });
    this.realms.set(name, realm);
    return realm;
  }

  suspend(name: string): Promise<void> {
    this.realms.get(name)?.close();
    this.realms.delete(name);
    return Promise.resolve();
  }

  resume(): void {
    // Nothing is served: nothing to resume.
  }

  async close(): Promise<void> {
    for (const realm of this.realms.values()) realm.close();
    this.realms.clear();
    await this.renderer.close();
  }
}

function realmNames(dataDir: string): string[] {
  const dir = realmsDir(dataDir);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(REALM_FILE_SUFFIX))
    .map((file) => file.slice(0, -REALM_FILE_SUFFIX.length))
    .sort();
}

async function run({ dataDir, externalHost, task }: OfflineTaskData, progress: Progress): Promise<AdminResult> {
  const host = new OfflineHost(dataDir, externalHost);
  try {
    return await runTask(host, task, progress);
  } catch (err) {
    if (err instanceof AdminError) return { ok: false, code: err.code, message: err.message };
    return { ok: false, code: 'failed', message: err instanceof Error ? err.message : String(err) };
  } finally {
    await host.close();
  }
}

async function runTask(host: OfflineHost, task: OfflineTask, progress: Progress): Promise<AdminResult> {
  switch (task.kind) {
    case 'command':
      return runAdminCommand(host, task.request, progress);
    case 'check': {
      const names = realmNames(host.dataDir);
      const realms = names.map((name, i) => {
        const check = checkRealmFile(realmFile(host.dataDir, name));
        progress(i + 1, names.length);
        return { realm: name, ...check };
      });
      return { ok: true, result: { ok: realms.every((realm) => realm.ok), realms } };
    }
    case 'export': {
      const exported = exportRealm(host.dataDir, task.realm, progress);
      fs.writeFileSync(task.to, JSON.stringify(exported));
      const rows = Object.values(exported.tables).reduce((sum, table) => sum + table.rows.length, 0);
      return { ok: true, result: { realm: task.realm, file: task.to, tables: Object.keys(exported.tables).length, rows } };
    }
    case 'import': {
      let data: unknown;
      try {
        data = JSON.parse(fs.readFileSync(task.from, 'utf8'));
      } catch (err) {
        throw new AdminError('damaged', `${task.from}: ${err instanceof Error ? err.message : String(err)}`);
      }
      const counts = importRealm(host.dataDir, task.realm, data, progress);
      const rows = Object.values(counts).reduce((sum, n) => sum + n, 0);
      return { ok: true, result: { realm: task.realm, file: task.from, tables: Object.keys(counts).length, rows } };
    }
  }
}

const post = (message: OfflineMessage): void => parentPort?.postMessage(message);
void run(workerData as OfflineTaskData, (done, total) => post({ type: 'progress', done, total })).then((result) =>
  post({ type: 'result', result }),
);
