import fs from 'node:fs';
import { DEFAULT_REALM, REALM_NAME_PATTERN } from '../src/realm/resolve';
import type { RequestFrame, ResponseFrame, ShardSettings } from '../src/wire/protocol';
import { TEST_ROUTE_IDS } from '../src/wire/routes';
import { realmFile } from './db/create-realm';
import { errors } from './lib/errors';
import { reply } from './lib/reply';
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
      return reply(frame.id, 404, { result: 'error', msg: 'Not found' });
    }
    let realm: Realm | null;
    try {
      realm = this.realm(frame.realm);
    } catch (err) {
      // A realm file that cannot be opened (too new a schema, corruption) must not take the
      // other realms of this shard down with it: answer, log, and try again next request.
      this.log.error({ err, realm: frame.realm }, 'cannot open realm');
      return reply(frame.id, 503, { result: 'error', msg: 'This organization is unavailable; the server log says why' });
    }
    if (!realm) {
      const err = errors.noSuchRealm(frame.realm);
      return reply(frame.id, err.status, err.toBody());
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
      deleteTopic: this.settings.deleteTopic,
    });
    this.realms.set(name, realm);
    this.log.info({ realm: name }, 'realm opened');
    return realm;
  }
}

