import t from 'tap';
import { checkPublishedEvent, type PublishedEvent } from '../../workers/events/published';
import type { QueuedEvent } from '../../workers/events/outbox';
import { newUnitRealm } from '../helpers/unit-realm';

// CONTRACT_CHECKS: every event an action publishes is checked against the published-event
// union (workers/events/published.ts) inside its transaction, so a broken one fails the write.
t.test('the published-event check', async (t) => {
  t.test('accepts what the union declares, names the event and the issue path otherwise', async (t) => {
    t.doesNotThrow(() => checkPublishedEvent({ type: 'alert_words', alert_words: ['x'] }));
    const cases: [unknown, string][] = [
      [{ type: 'alert_words', alert_words: [1] }, 'alert_words.0: Invalid input: expected string, received number'],
      [{ type: 'alert_words', alert_words: [], extra: true }, '(root): Unrecognized key: "extra"'],
      [{ type: 'pointer' }, 'pointer: Invalid input: expected number, received undefined'],
    ];
    for (const [event, issue] of cases) {
      const type = (event as { type: string }).type;
      t.throws(
        () => checkPublishedEvent(event),
        { name: 'ContractViolation', message: `a published ${type} event breaks the published-event schema: ${issue}` },
        issue,
      );
    }
    t.throws(() => checkPublishedEvent({ type: 'no_such_event' }), { name: 'ContractViolation' }, 'an undeclared type');
  });

  t.test('a transaction that publishes a broken event fails, its writes undone and nothing delivered', async (t) => {
    const realm = await newUnitRealm('checked', undefined, checkPublishedEvent);
    t.teardown(() => realm.close());
    const delivered: QueuedEvent[] = [];
    realm.events.subscribe((events) => delivered.push(...events));
    const broken = { type: 'alert_words', alert_words: 'not a list' } as unknown as PublishedEvent;
    await t.rejects(
      realm.transact((tx) => {
        tx.realm.stmt("UPDATE realm SET description = 'written'").run();
        tx.publish(broken, [1]);
      }),
      { name: 'ContractViolation' },
    );
    const row = realm.db.prepare('SELECT description FROM realm WHERE id = 1').get() as { description: string };
    t.not(row.description, 'written', 'the write rolled back');
    t.strictSame(delivered, [], 'no event left the outbox');
    t.throws(() => realm.events.publish(broken, [1]), { name: 'ContractViolation' }, "an actor's event is checked too");
    t.strictSame(delivered, []);
  });
});
