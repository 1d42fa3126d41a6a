import t from 'tap';
import { peopleGroups, presenceState, serverNow } from '../../src/web/app/panels/presence';
import type { Presence } from '../../src/web/common/types';
import { user } from './panels-fixtures';

const NOW = 1_700_000_000;

t.test('presence is active within 140 seconds of the last active report', async (t) => {
  t.equal(presenceState({ active_timestamp: NOW - 140, idle_timestamp: NOW - 140 }, NOW), 'active');
  t.equal(presenceState({ active_timestamp: NOW - 141, idle_timestamp: NOW - 10 }, NOW), 'idle');
  t.equal(presenceState({ active_timestamp: NOW - 500, idle_timestamp: NOW - 141 }, NOW), 'offline');
  t.equal(presenceState(undefined, NOW), 'offline', 'no report at all is offline');
});

t.test('the server clock is ours plus the measured offset', async (t) => {
  t.equal(serverNow({ serverTimeOffset: 30 }, 1_000_000), 1030);
});

t.test('active humans come first, then the others by name; bots apart; deactivated users left out', async (t) => {
  const users = new Map([
    [1, user(1, { full_name: 'Zoe' })],
    [2, user(2, { full_name: 'Bob' })],
    [3, user(3, { full_name: 'Alice' })],
    [4, user(4, { full_name: 'Carl' })],
    [5, user(5, { full_name: 'Gone', is_active: false })],
    [6, user(6, { full_name: 'Notify bot', is_bot: true })],
  ]);
  const presences = new Map<number, Presence>([
    [1, { active_timestamp: NOW - 5, idle_timestamp: NOW - 5 }],
    [4, { active_timestamp: NOW - 1000, idle_timestamp: NOW - 20 }],
    [6, { active_timestamp: NOW, idle_timestamp: NOW }],
  ]);
  const { humans, bots } = peopleGroups({ users, presences }, NOW);
  t.strictSame(
    humans.map((row) => [row.user.full_name, row.presence]),
    [
      ['Zoe', 'active'],
      ['Alice', 'offline'],
      ['Bob', 'offline'],
      ['Carl', 'idle'],
    ],
  );
  t.strictSame(
    bots.map((row) => row.user.full_name),
    ['Notify bot'],
  );
});

t.test('a user object without is_active (as register sends them) counts as active', async (t) => {
  const { is_active: _left, ...fields } = user(7, { full_name: 'Quiet' });
  const users = new Map([[7, fields as typeof fields & { is_active: boolean }]]);
  t.strictSame(
    peopleGroups({ users, presences: new Map() }, NOW).humans.map((row) => row.user.full_name),
    ['Quiet'],
  );
});
