import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { eventField } from '../helpers/unit-realm';
import pino from 'pino';
import { doUpdatePresence } from '../../workers/actions/presence';
import { PresenceFlusher } from '../../workers/actors/presence';
import { createRealm } from '../../workers/db/create-realm';
import type { QueuedEvent } from '../../workers/events/outbox';
import { presenceStateJson } from '../../workers/queries/presence';
import { userById, type UserRow } from '../../workers/queries/users';
import { Realm } from '../../workers/realm';
import { Renderer } from '../../workers/render/pool';
import { FakeClock } from '../helpers/fake-clock';

// Presence in memory, its events over time, and the flushing actor (STYLE §2.4 habit 9).

const INTERVAL_MS = 30_000;

t.test('presence and its flusher', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-unit-'));
  const created = await createRealm(dataDir, { subdomain: 'here', name: 'here', ownerEmail: 'o@here.test', ownerName: 'O' });
  const startMs = Date.UTC(2026, 0, 1);
  const clock = new FakeClock(startMs);
  const log = pino({ level: 'silent' });
  const open = () =>
    new Realm('here', created.file, { externalHost: 'localhost', isDefault: false, log, renderer: new Renderer(0), clock });
  const realm = open();
  const owner = userById(realm, 1) as UserRow;
  const flusher = new PresenceFlusher(realm, clock, log, INTERVAL_MS);
  realm.own(flusher);
  const events: QueuedEvent[] = [];
  realm.events.subscribe((batch) => events.push(...batch));
  const stored = () => realm.stmt('SELECT user_id, last_connected_time, last_active_time FROM user_presence').all();
  const ownerShown = () =>
    (JSON.parse(Buffer.concat(presenceStateJson(realm, false).presences.pieces).toString()) as Record<string, Record<string, unknown>>)[
      'o@here.test'
    ];
  const startS = startMs / 1000;

  await t.test('arms ONE timer for the interval', async (t) => {
    flusher.arm();
    t.strictSame(clock.armedAt(), [startMs + INTERVAL_MS]);
  });

  await t.test('a ping is kept in memory, announced, and not written', async (t) => {
    doUpdatePresence(realm, owner, 'active');
    t.strictSame(stored(), []);
    t.strictSame(ownerShown()?.['aggregated'], { client: 'website', status: 'active', timestamp: startS });
    t.strictSame(
      events.map((e) => eventField(e, 'presence')),
      [{ website: { client: 'website', status: 'active', timestamp: startS, pushable: false } }],
    );
  });

  await t.test('the flush writes the pinged users in one go and re-arms', async (t) => {
    clock.advanceTo(startMs + INTERVAL_MS);
    await flusher.whenIdle();
    t.strictSame(stored(), [{ user_id: 1, last_connected_time: startS, last_active_time: startS }]);
    t.strictSame(clock.armedAt(), [startMs + 2 * INTERVAL_MS]);
  });

  await t.test('idle pings within 70 seconds of activity still show active, later ones idle', async (t) => {
    events.length = 0;
    clock.advanceTo(startMs + 60_000);
    doUpdatePresence(realm, owner, 'idle');
    t.strictSame(events, [], 'nothing others see changed');
    clock.advanceTo(startMs + 80_000);
    doUpdatePresence(realm, owner, 'idle');
    t.strictSame(ownerShown()?.['aggregated'], { client: 'website', status: 'idle', timestamp: startS + 80 });
    t.strictSame(
      events.map((e) => eventField(e, 'presence')),
      [{ website: { client: 'website', status: 'idle', timestamp: startS + 80, pushable: false } }],
    );
  });

  await t.test('a user back after the offline threshold is announced again', async (t) => {
    events.length = 0;
    clock.advanceTo(startMs + 400_000);
    doUpdatePresence(realm, owner, 'idle');
    t.equal(events.length, 1);
  });

  await t.test('stopping flushes what the timer has not, and a reopened realm has it', async (t) => {
    realm.close();
    const reopened = open();
    t.teardown(() => reopened.close());
    t.strictSame(reopened.presence.get(1), { lastConnected: startS + 400, lastActive: startS });
  });
});
