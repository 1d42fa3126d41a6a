import t from 'tap';
import { doCreateDrafts } from '../../workers/actions/drafts';
import { doUpdateMessage } from '../../workers/actions/message-edit';
import { doSendMessage } from '../../workers/actions/messages';
import { doMuteUser } from '../../workers/actions/muted-users';
import { doCreateScheduledMessage } from '../../workers/actions/scheduled-messages';
import { doSubscribe } from '../../workers/actions/subscriptions';
import { doCreateUser } from '../../workers/actions/users';
import { userById, type UserRow } from '../../workers/queries/users';
import { FakeClock } from '../helpers/fake-clock';
import { newUnitRealm } from '../helpers/unit-realm';

// A time far from the machine's: an action reading the system clock instead is seen at once.
const START_SECONDS = 1_614_834_367; // 2021-03-04T05:06:07Z

t.test("actions stamp their rows with the realm's clock, not the machine's", async (t) => {
  const clock = new FakeClock(START_SECONDS * 1000 + 250);
  const realm = await newUnitRealm('clocked', clock);
  t.teardown(() => realm.close());
  const owner = userById(realm, 1) as UserRow;
  const column = (sql: string, ...args: (number | string)[]): unknown => Object.values(realm.stmt(sql).get(...args) as object)[0];

  const messageId = await doSendMessage(realm, owner, {
    target: { kind: 'stream', to: ['general'], topic: 'then' },
    content: 'first',
    client: 'test',
    queueId: undefined,
    localId: undefined,
  });
  t.strictSame(column('SELECT date_sent FROM messages WHERE id = ?', messageId), START_SECONDS, 'a message is sent at the realm clock');

  clock.jumpTo((START_SECONDS + 30) * 1000);
  await doUpdateMessage(realm, owner, {
    messageId,
    topic: undefined,
    streamId: undefined,
    content: 'first, edited',
    propagateMode: 'change_one',
    notifyOldThread: false,
    notifyNewThread: false,
  });
  t.strictSame(
    column('SELECT last_edit_timestamp FROM messages WHERE id = ?', messageId),
    START_SECONDS + 30,
    'an edit is stamped by the realm clock',
  );

  const newcomerId = await doCreateUser(realm, owner, { email: 'new@clocked.test', password: 'a long enough password', fullName: 'New' });
  t.strictSame(
    column('SELECT date_joined FROM users WHERE id = ?', newcomerId),
    START_SECONDS + 30,
    'a new account joins at the realm clock',
  );

  await doMuteUser(realm, owner, newcomerId);
  t.strictSame(
    column('SELECT date_muted FROM muted_users WHERE user_id = ? AND muted_user_id = ?', owner.id, newcomerId),
    START_SECONDS + 30,
  );

  await doSubscribe(realm, owner, {
    subscriptions: [{ name: 'history' }],
    principals: undefined,
    authorizationErrorsFatal: true,
    announce: false,
    settings: {
      inviteOnly: false,
      isWebPublic: false,
      historyPublicToSubscribers: undefined,
      streamPostPolicy: 1,
      messageRetentionDays: undefined,
      canRemoveSubscribersGroupId: undefined,
    },
  });
  t.strictSame(
    column("SELECT date_created FROM streams WHERE name = 'history'"),
    START_SECONDS + 30,
    'a stream is created at the realm clock',
  );

  const [draftId] = await doCreateDrafts(realm, owner, [{ type: '', to: [], topic: '', content: 'an idea' }]);
  t.strictSame(
    column('SELECT last_edit_time FROM drafts WHERE id = ?', draftId as number),
    START_SECONDS + 30,
    'a draft sent without a timestamp gets the realm clock',
  );

  // An hour after the realm's now is in the future, though long past for the machine.
  const scheduledId = await doCreateScheduledMessage(realm, owner, {
    type: 'stream',
    to: column("SELECT id FROM streams WHERE name = 'general'") as number,
    content: 'later',
    topic: 'then',
    scheduledTimestamp: START_SECONDS + 3600,
    client: 'test',
  });
  t.strictSame(column('SELECT scheduled_timestamp FROM scheduled_messages WHERE id = ?', scheduledId), START_SECONDS + 3600);
});
