import t from 'tap';
import pino from 'pino';
import { doCreateScheduledMessage, doDeleteScheduledMessage, doUpdateScheduledMessage } from '../../workers/actions/scheduled-messages';
import { MAX_TIMER_DELAY_MS, ScheduledMessageSender } from '../../workers/actors/scheduler';
import type { QueuedEvent } from '../../workers/events/outbox';
import { FakeClock } from '../helpers/fake-clock';
import { userById, type UserRow } from '../../workers/queries/users';
import type { Realm } from '../../workers/realm';
import { newUnitRealm } from '../helpers/unit-realm';

function rowState(realm: Realm, id: number): { delivered: number; failed: number; delivered_message_id: number | null } {
  return realm.stmt('SELECT delivered, failed, delivered_message_id FROM scheduled_messages WHERE id = ?').get(id) as {
    delivered: number;
    failed: number;
    delivered_message_id: number | null;
  };
}

t.test('the scheduled-message delivery actor', async (t) => {
  const realm = await newUnitRealm('sched');
  t.teardown(() => realm.close());
  const owner = userById(realm, 1) as UserRow;
  const generalId = (realm.stmt("SELECT id FROM streams WHERE name = 'general'").get() as { id: number }).id;
  const startSeconds = Math.floor(Date.now() / 1000);
  const clock = new FakeClock(startSeconds * 1000);
  const scheduler = new ScheduledMessageSender(realm, clock, pino({ level: 'silent' }));
  realm.own(scheduler);
  const events: QueuedEvent[] = [];
  realm.events.subscribe((batch) => events.push(...batch));

  const schedule = (offsetSeconds: number, content: string): Promise<number> =>
    doCreateScheduledMessage(realm, owner, {
      type: 'stream',
      to: generalId,
      content,
      topic: 'later',
      scheduledTimestamp: startSeconds + offsetSeconds,
      client: 'test',
    });

  t.test('arms nothing while no message is pending', async (t) => {
    scheduler.arm();
    t.strictSame(clock.armedAt(), []);
  });

  const ids: number[] = [];
  t.test('keeps ONE timer, for the earliest due time, however many messages are pending', async (t) => {
    for (const offset of [500, 300, 100, 400, 200]) ids.push(await schedule(offset, `due at +${offset}`));
    t.strictSame(clock.armedAt(), [(startSeconds + 100) * 1000]);
  });

  t.test('creating queues op add, and editing op update, with the whole object, to the sender only', async (t) => {
    events.length = 0;
    const id = await schedule(900, 'edit me');
    const object = {
      scheduled_message_id: id,
      type: 'stream',
      to: generalId,
      topic: 'later',
      content: 'edit me',
      rendered_content: '<p>edit me</p>',
      scheduled_delivery_timestamp: startSeconds + 900,
      failed: false,
    };
    t.strictSame(events, [{ event: { type: 'scheduled_messages', op: 'add', scheduled_messages: [object] }, userIds: [owner.id] }]);
    events.length = 0;
    await doUpdateScheduledMessage(realm, owner, id, {
      type: undefined,
      to: undefined,
      content: 'edited',
      topic: undefined,
      scheduledTimestamp: undefined,
    });
    t.strictSame(events, [
      {
        event: {
          type: 'scheduled_messages',
          op: 'update',
          scheduled_message: { ...object, content: 'edited', rendered_content: '<p>edited</p>' },
        },
        userIds: [owner.id],
      },
    ]);
    events.length = 0;
    await doDeleteScheduledMessage(realm, owner, id);
    t.strictSame(events, [{ event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, userIds: [owner.id] }]);
    t.strictSame(clock.armedAt(), [(startSeconds + 100) * 1000], 'still the one timer for the earliest');
  });

  t.test('delivers the earliest when its time comes, then re-arms for the next', async (t) => {
    events.length = 0;
    clock.jumpTo((startSeconds + 100) * 1000);
    await scheduler.whenIdle();
    const first = ids[2] as number;
    const state = rowState(realm, first);
    t.equal(state.delivered, 1);
    t.not(state.delivered_message_id, null);
    t.not(state.delivered_message_id, first, 'the sent message gets its own ID');
    t.strictSame(clock.armedAt(), [(startSeconds + 200) * 1000]);
    const remove = events.find((queued) => queued.event.type === 'scheduled_messages');
    t.strictSame(remove, { event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: first }, userIds: [owner.id] });
    const message = events.find((queued) => queued.event.type === 'message');
    t.ok(message, 'the delivery queued the message event of a normal send');
  });

  t.test('re-arms for the next one when the earliest is deleted', async (t) => {
    await doDeleteScheduledMessage(realm, owner, ids[4] as number);
    t.strictSame(clock.armedAt(), [(startSeconds + 300) * 1000]);
  });

  t.test('delivers everything overdue in one round, each exactly once', async (t) => {
    clock.jumpTo((startSeconds + 1000) * 1000);
    await scheduler.whenIdle();
    for (const id of [ids[0], ids[1], ids[3]] as number[]) t.equal(rowState(realm, id).delivered, 1);
    const sent = realm.stmt("SELECT count(*) AS n FROM messages WHERE content LIKE 'due at +%'").get() as { n: number };
    t.equal(sent.n, 4, 'four delivered, the deleted one never');
    t.strictSame(clock.armedAt(), []);
  });

  t.test('marks a message failed, with an update event, when its stream is gone by then', async (t) => {
    realm.stmt("UPDATE streams SET deactivated = 1 WHERE name = 'general'").run();
    t.teardown(() => void realm.stmt("UPDATE streams SET deactivated = 0 WHERE name = 'general'").run());
    // Inserted directly: the stream check at creation would refuse it now.
    const id = Number(
      realm
        .stmt(
          `INSERT INTO scheduled_messages (sender_id, recipient_kind, stream_id, topic, content, rendered_content,
             scheduled_timestamp, client, date_created) VALUES (?, 2, ?, 'later', 'doomed', '<p>doomed</p>', ?, 'test', ?)`,
        )
        .run(owner.id, generalId, startSeconds + 1100, startSeconds).lastInsertRowid,
    );
    scheduler.arm();
    events.length = 0;
    clock.jumpTo((startSeconds + 1100) * 1000);
    await scheduler.whenIdle();
    const row = realm.stmt('SELECT delivered, failed, failure_message FROM scheduled_messages WHERE id = ?').get(id);
    t.strictSame(row, { delivered: 0, failed: 1, failure_message: `Stream with ID '${generalId}' does not exist` });
    t.strictSame(events, [
      {
        event: {
          type: 'scheduled_messages',
          op: 'update',
          scheduled_message: {
            scheduled_message_id: id,
            type: 'stream',
            to: generalId,
            topic: 'later',
            content: 'doomed',
            rendered_content: '<p>doomed</p>',
            scheduled_delivery_timestamp: startSeconds + 1100,
            failed: true,
          },
        },
        userIds: [owner.id],
      },
    ]);
    t.strictSame(clock.armedAt(), [], 'a failed message is not retried on its own');
  });

  t.test('clamps a far-off delay to what setTimeout can hold, and only re-arms on that wake-up', async (t) => {
    const farOffset = 40 * 24 * 3600; // 40 days: more than 2^31 - 1 ms
    const id = await schedule(farOffset, 'far off');
    const now = clock.now();
    t.strictSame(clock.armedAt(), [now + MAX_TIMER_DELAY_MS]);
    clock.jumpTo(now + MAX_TIMER_DELAY_MS);
    await scheduler.whenIdle();
    t.equal(rowState(realm, id).delivered, 0, 'not yet due');
    t.strictSame(clock.armedAt(), [(startSeconds + farOffset) * 1000]);
  });

  t.test('stops its timer when the realm closes', async (t) => {
    t.equal(clock.timers.size, 1);
    scheduler.stop();
    t.equal(clock.timers.size, 0);
  });
});
