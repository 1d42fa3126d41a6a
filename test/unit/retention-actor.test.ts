import t from 'tap';
import pino from 'pino';
import { doSendMessage } from '../../workers/actions/messages';
import { RetentionActor } from '../../workers/actors/retention';
import type { QueuedEvent } from '../../workers/events/outbox';
import { userById, type UserRow } from '../../workers/queries/users';
import { FakeClock } from '../helpers/fake-clock';
import { newUnitRealm } from '../helpers/unit-realm';

const DAY_MS = 24 * 60 * 60_000;
const INTERVAL_MS = 60_000;

t.test('the retention actor', async (t) => {
  const nowMs = Date.now();
  // The realm's actions and the actor read the same clock: messages are sent in the past by moving it.
  const clock = new FakeClock(nowMs - 10 * DAY_MS);
  const realm = await newUnitRealm('keep', clock);
  t.teardown(() => realm.close());
  const owner = userById(realm, 1) as UserRow;
  const send = (topic: string) =>
    doSendMessage(realm, owner, {
      target: { kind: 'stream', to: ['general'], topic },
      content: topic,
      client: 'test',
      queueId: undefined,
      localId: undefined,
    });
  const exists = (id: number) => realm.stmt('SELECT 1 FROM messages WHERE id = ?').get(id) !== undefined;
  const generalId = (realm.stmt("SELECT id FROM streams WHERE name = 'general'").get() as { id: number }).id;
  // Batches of 2: three expired messages take two transactions in one sweep.
  const actor = new RetentionActor(realm, clock, pino({ level: 'silent' }), { intervalMs: INTERVAL_MS, batchSize: 2 });
  realm.own(actor);
  const events: QueuedEvent[] = [];
  realm.events.subscribe((batch) => events.push(...batch));

  // Sent ten days before now; the fresh one at now.
  const old = [await send('a'), await send('a'), await send('b')];
  clock.jumpTo(nowMs);
  const fresh = await send('a');

  t.test('arms ONE timer for the interval', async (t) => {
    actor.arm();
    t.strictSame(clock.armedAt(), [nowMs + INTERVAL_MS]);
  });

  t.test('without a retention period nothing is deleted', async (t) => {
    clock.advanceTo(nowMs + INTERVAL_MS);
    await actor.whenIdle();
    t.ok([...old, fresh].every(exists));
    t.strictSame(
      events.filter((e) => e.event.type === 'delete_message'),
      [],
    );
    t.strictSame(clock.armedAt(), [nowMs + 2 * INTERVAL_MS], 're-armed for the next sweep');
  });

  t.test('with 7 days on the stream, the expired messages go in batches, one event per topic', async (t) => {
    realm.stmt('UPDATE streams SET message_retention_days = 7 WHERE id = ?').run(generalId);
    clock.advanceTo(nowMs + 2 * INTERVAL_MS);
    await actor.whenIdle();
    t.strictSame(old.map(exists), [false, false, false], 'the expired messages are gone');
    t.ok(exists(fresh), 'the fresh one stays');
    const deletes = events.flatMap((e) => (e.event.type === 'delete_message' ? [e.event] : []));
    t.strictSame(
      deletes.map((e) => [e.topic, e.message_ids]),
      [
        ['a', [old[0], old[1]]],
        ['b', [old[2]]],
      ],
    );
  });

  t.test('-1 on the stream keeps messages forever, whatever the realm says', async (t) => {
    // Back 400 days to send it, then on to the next sweep (no timer is due in between).
    const sweptAt = nowMs + 3 * INTERVAL_MS;
    clock.jumpTo(nowMs - 400 * DAY_MS);
    const older = await send('c');
    realm.stmt('UPDATE streams SET message_retention_days = -1 WHERE id = ?').run(generalId);
    realm.stmt(`UPDATE realm SET settings = json_set(settings, '$.message_retention_days', 30) WHERE id = 1`).run();
    clock.advanceTo(sweptAt);
    await actor.whenIdle();
    t.ok(exists(older));
    t.test('null on the stream inherits the realm setting', async (t) => {
      realm.stmt('UPDATE streams SET message_retention_days = NULL WHERE id = ?').run(generalId);
      clock.advanceTo(nowMs + 4 * INTERVAL_MS);
      await actor.whenIdle();
      t.notOk(exists(older));
      t.ok(exists(fresh));
    });
  });

  t.test('stop clears the timer', async (t) => {
    actor.stop();
    t.strictSame(clock.armedAt(), []);
  });
});
