import t from 'tap';
import { organizationChanges, organizationForm } from '../../src/web/app/panels/admin-organization';
import {
  isTopicMuted,
  messageLink,
  messagePermissions,
  rolePassesPolicy,
  toggledResolution,
  POLICY,
} from '../../src/web/app/panels/permissions';
import { assignableRoles, roleLabel } from '../../src/web/app/panels/roles';
import { message, user } from './panels-fixtures';

const SENT = 1_000_000;
const realm = {
  realm_allow_message_editing: true,
  realm_message_content_edit_limit_seconds: 600,
  realm_delete_own_message_policy: POLICY.MEMBERS,
  realm_message_content_delete_limit_seconds: 600,
  realm_edit_topic_policy: POLICY.EVERYONE,
  realm_move_messages_within_stream_limit_seconds: 604_800,
  realm_move_messages_between_streams_policy: POLICY.ADMINS,
  realm_move_messages_between_streams_limit_seconds: 604_800,
};
const author = user(1);
const other = user(2);
const admin = user(3, { role: 200, is_admin: true });

t.test('the author may edit and delete their message within the limits', async (t) => {
  const may = messagePermissions(author, message(1), realm, SENT + 60);
  t.equal(may.edit, true);
  t.equal(may.delete, true);
  t.equal(may.editTopic, true);
  t.equal(may.moveToStream, false, 'members may not move between streams by default');
  t.equal(may.muteTopic, true);
});

t.test('after the edit limit the author may no longer edit', async (t) => {
  const may = messagePermissions(author, message(1), realm, SENT + 601);
  t.equal(may.edit, false);
  t.equal(may.delete, false, 'nor delete, past the delete limit');
});

t.test('no edit limit means editing at any age; editing off means never', async (t) => {
  t.equal(messagePermissions(author, message(1), { ...realm, realm_message_content_edit_limit_seconds: null }, SENT + 10 ** 8).edit, true);
  t.equal(messagePermissions(author, message(1), { ...realm, realm_allow_message_editing: false }, SENT).edit, false);
});

t.test("nobody edits someone else's message, not even an administrator", async (t) => {
  t.equal(messagePermissions(other, message(1), realm, SENT).edit, false);
  t.equal(messagePermissions(admin, message(1), realm, SENT).edit, false);
});

t.test('an administrator may delete any message at any age; another member may not', async (t) => {
  t.equal(messagePermissions(admin, message(1), realm, SENT + 10 ** 8).delete, true);
  t.equal(messagePermissions(other, message(1), realm, SENT).delete, false);
});

t.test('deleting own messages follows the realm policy', async (t) => {
  t.equal(messagePermissions(author, message(1), { ...realm, realm_delete_own_message_policy: POLICY.ADMINS }, SENT).delete, false);
});

t.test('moving between streams is for administrators by default, and not subject to the limit for them', async (t) => {
  t.equal(messagePermissions(admin, message(1), realm, SENT + 10 ** 8).moveToStream, true);
});

t.test('direct messages have no topic to move, resolve or mute', async (t) => {
  const dm = message(1, { type: 'private', display_recipient: [], subject: '' });
  delete dm.stream_id;
  const may = messagePermissions(author, dm, realm, SENT);
  t.strictSame([may.editTopic, may.moveToStream, may.muteTopic], [false, false, false]);
});

t.test('realm policies by role', async (t) => {
  t.equal(rolePassesPolicy(400, POLICY.MEMBERS), true);
  t.equal(rolePassesPolicy(600, POLICY.MEMBERS), false, 'guests are not members');
  t.equal(rolePassesPolicy(600, POLICY.EVERYONE), true);
  t.equal(rolePassesPolicy(300, POLICY.MODERATORS), true);
  t.equal(rolePassesPolicy(400, POLICY.MODERATORS), false);
  t.equal(rolePassesPolicy(100, POLICY.NOBODY), false);
});

t.test('resolving a topic adds the check mark and unresolving removes it', async (t) => {
  t.equal(toggledResolution('bug'), '✔ bug');
  t.equal(toggledResolution('✔ bug'), 'bug');
});

t.test('a topic is muted when its visibility policy is 1', async (t) => {
  const topicPolicies = new Map([
    ['10:greetings', 1],
    ['10:other', 2],
  ]);
  t.equal(isTopicMuted({ topicPolicies }, 10, 'greetings'), true);
  t.equal(isTopicMuted({ topicPolicies }, 10, 'other'), false);
  t.equal(isTopicMuted({ topicPolicies }, 11, 'greetings'), false);
});

t.test('a message link follows the hash grammar', async (t) => {
  t.equal(messageLink(message(7, { subject: 'a b' }), 1, 'http://chat.test/'), 'http://chat.test/#narrow/stream/10/topic/a%20b/near/7');
  const dm = message(8, {
    type: 'private',
    display_recipient: [
      { id: 1, email: '', full_name: '' },
      { id: 5, email: '', full_name: '' },
      { id: 3, email: '', full_name: '' },
    ],
  });
  t.equal(messageLink(dm, 1, ''), '#narrow/dm/3,5/near/8', 'the other people, ascending');
});

t.test('role labels', async (t) => {
  t.strictSame([100, 200, 300, 400, 600].map(roleLabel), ['Owner', 'Administrator', 'Moderator', 'Member', 'Guest']);
  t.equal(roleLabel(999), 'Role 999');
  t.notOk(
    assignableRoles({ role: 200 }).some((choice) => choice.value === 100),
    'administrators cannot make owners',
  );
  t.ok(assignableRoles({ role: 100 }).some((choice) => choice.value === 100));
});

t.test('the organization form sends only what changed', async (t) => {
  const before = organizationForm({
    realm_name: 'Acme',
    realm_description: '',
    realm_allow_message_editing: true,
    realm_message_content_edit_limit_seconds: 600,
  });
  t.strictSame(organizationChanges(before, before), {});
  t.strictSame(organizationChanges(before, { ...before, name: ' Acme Inc ', message_content_edit_limit_seconds: '' }), {
    name: 'Acme Inc',
    message_content_edit_limit_seconds: 'unlimited',
  });
  t.strictSame(organizationChanges(before, { ...before, waiting_period_threshold: '3', edit_topic_policy: POLICY.ADMINS }), {
    waiting_period_threshold: 3,
    edit_topic_policy: POLICY.ADMINS,
  });
});
