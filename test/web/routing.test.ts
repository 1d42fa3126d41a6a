import t from 'tap';
import { addressRewrite } from '../../src/web/app/routing';
import { toHash, type Narrow } from '../../src/web/state/narrow';
import { ANN, BO, ME } from './fixtures';

const stream: Narrow = { kind: 'stream', streamId: 4 };
const topic: Narrow = { kind: 'topic', streamId: 4, topic: 'the plan' };
const moved: Narrow = { kind: 'topic', streamId: 9, topic: 'moved away' };
const withAnn: Narrow = { kind: 'dm', userIds: [ANN] };

t.test('a view that changed by itself rewrites the address that still shows the view it left', async (t) => {
  t.equal(addressRewrite(topic, topic, moved, ME), toHash(moved), 'a topic moved away takes the address along');
  t.equal(
    addressRewrite({ kind: 'dm', userIds: [ANN, ME].sort((a, b) => a - b) }, { kind: 'all' }, withAnn, ME),
    toHash(withAnn),
    'an address naming me in a conversation is written without me',
  );
});

t.test('an address that has moved on to another view keeps its history entry', async (t) => {
  // The click on the next link lands before the effect of the view before it has run.
  t.equal(addressRewrite(withAnn, stream, topic, ME), null, 'a conversation link clicked while the topic view was painting');
  t.equal(addressRewrite(stream, topic, moved, ME), null, 'Back pressed just as the topic moved');
  t.equal(addressRewrite({ kind: 'dm', userIds: [BO] }, topic, withAnn, ME), null, 'another conversation, not this one with me in it');
});

t.test('nothing is rewritten when the address already shows the view, or shows no view', async (t) => {
  t.equal(addressRewrite(topic, stream, topic, ME), null);
  t.equal(addressRewrite(null, topic, moved, ME), null);
  t.equal(
    addressRewrite({ kind: 'dm', userIds: [ANN, ME].sort((a, b) => a - b) }, { kind: 'all' }, withAnn, undefined),
    null,
    'before I am known',
  );
});
