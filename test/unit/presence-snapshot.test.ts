import fc from 'fast-check';
import t from 'tap';
import { doUpdatePresence } from '../../workers/actions/presence';
import { doCreateUser } from '../../workers/actions/users';
import { doDeactivateUser, doReactivateUser } from '../../workers/actions/deactivation';
import { legacyPresence, realmPresencesJson, slimPresence } from '../../workers/queries/presence';
import { userById, type UserRow } from '../../workers/queries/users';
import { FakeClock } from '../helpers/fake-clock';
import { newUnitRealm } from '../helpers/unit-realm';

// The presences answer is kept as chunks patched by pings (queries/presence.ts): whatever
// happened before, it must read as a build from scratch would, and bytes already handed to an
// answer must never change under it. Two entries a chunk, so five users make several chunks.

type Step = { kind: 'ping'; user: number; active: boolean; advanceS: number } | { kind: 'deactivate' | 'reactivate'; user: number };

t.test('the presences snapshot always equals a fresh build', async (t) => {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const realm = await newUnitRealm('snap', clock);
  const owner = userById(realm, 1) as UserRow;
  const ids = [owner.id];
  for (const name of ['a', 'b', 'c', 'd']) {
    ids.push(await doCreateUser(realm, owner, { email: `${name}@snap.test`, password: 'secret-pw', fullName: name.toUpperCase() }));
  }
  const expected = (slim: boolean): Record<string, unknown> => {
    const shown: Record<string, unknown> = {};
    for (const [userId, times] of realm.presence.entries()) {
      const user = userById(realm, userId);
      if (!user?.is_active) continue;
      shown[slim ? String(userId) : user.email] = slim ? slimPresence(times) : legacyPresence(times);
    }
    return shown;
  };
  let answers = 0;
  let answersOfSeveralChunks = 0;
  const read = (slim: boolean): readonly Buffer[] => {
    const pieces = realmPresencesJson(realm, slim, 2).pieces;
    answers++;
    // The opening brace, the chunks, the closing one.
    if (pieces.length > 3) answersOfSeveralChunks++;
    return pieces;
  };
  const step = fc.oneof(
    fc.record({ kind: fc.constant('ping' as const), user: fc.nat(4), active: fc.boolean(), advanceS: fc.integer({ min: 0, max: 120 }) }),
    fc.record({ kind: fc.constantFrom('deactivate' as const, 'reactivate' as const), user: fc.integer({ min: 1, max: 4 }) }),
  );
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { maxLength: 30 }), async (steps: Step[]) => {
      runs++;
      const handedOut: { pieces: readonly Buffer[]; copy: string }[] = [];
      for (const s of steps) {
        const userId = ids[s.user] as number;
        if (s.kind === 'ping') {
          clock.advanceTo(clock.now() + s.advanceS * 1000);
          const user = userById(realm, userId) as UserRow;
          if (user.is_active) doUpdatePresence(realm, user, s.active ? 'active' : 'idle');
        } else if (s.kind === 'deactivate' && userById(realm, userId)?.is_active) {
          await doDeactivateUser(realm, owner, userId);
        } else if (s.kind === 'reactivate' && !userById(realm, userId)?.is_active) {
          await doReactivateUser(realm, owner, userId);
        }
        for (const slim of [true, false]) {
          const pieces = read(slim);
          const text = Buffer.concat(pieces).toString();
          if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(expected(slim))) return false;
          handedOut.push({ pieces, copy: text });
        }
      }
      return handedOut.every((answer) => Buffer.concat(answer.pieces).toString() === answer.copy);
    }),
    { numRuns: 60, seed: 24 },
  );
  t.equal(runs, 60);
  t.ok(answersOfSeveralChunks > 0, `answers of several chunks were read (${answersOfSeveralChunks} of ${answers})`);
});
