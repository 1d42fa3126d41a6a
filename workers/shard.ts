import fs from 'node:fs';
import { DEFAULT_REALM, REALM_NAME_PATTERN } from '../src/realm/resolve';
import type { RequestFrame, ResponseFrame, ShardSettings } from '../src/wire/protocol';
import { TEST_ROUTE_IDS } from '../src/wire/routes';
import { realmFile } from './db/create-realm';
import { errors } from './lib/errors';
import type { Logger } from './lib/log';
import { Realm } from './realm';
import { Renderer } from './render/pool';

/** The realms one shard thread owns, opened on their first request. */
export class Shard {
  private readonly realms = new Map<string, Realm>();
  private readonly testRoutes = new Set<string>(TEST_ROUTE_IDS);
  private readonly renderer: Renderer;

  constructor(
    private readonly settings: ShardSettings,
    private readonly log: Logger,
  ) {
    this.renderer = new Renderer(settings.renderThreads);
  }

  async handle(frame: RequestFrame): Promise<ResponseFrame> {
    if (this.testRoutes.has(frame.route) && !this.settings.testHooks) {
      return { kind: 'response', id: frame.id, status: 404, headers: {}, body: JSON.stringify({ result: 'error', msg: 'Not found' }) };
    }
    const realm = this.realm(frame.realm);
    if (!realm) {
      const err = errors.noSuchRealm(frame.realm);
      return { kind: 'response', id: frame.id, status: err.status, headers: {}, body: JSON.stringify(err.toBody()) };
    }
    return realm.handle(frame);
  }

  /** Closes every realm database (a clean close also checkpoints the WAL). */
  async close(): Promise<void> {
    for (const realm of this.realms.values()) realm.close();
    this.realms.clear();
    await this.renderer.close();
  }

  private realm(name: string): Realm | null {
    const open = this.realms.get(name);
    if (open) return open;
    if (!REALM_NAME_PATTERN.test(name)) return null;
    const file = realmFile(this.settings.dataDir, name);
    // Not cached when missing: `manage create-realm` may add it while we run.
    if (!fs.existsSync(file)) return null;
    const realm = new Realm(name, file, {
      externalHost: this.settings.externalHost,
      isDefault: name === DEFAULT_REALM,
      log: this.log,
      renderer: this.renderer,
    });
    this.realms.set(name, realm);
    this.log.info({ realm: name }, 'realm opened');
    return realm;
  }
}
