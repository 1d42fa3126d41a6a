import t from 'tap';
import { Drafts, type DraftStorage } from '../../src/web/state/drafts';

function memoryStorage(): DraftStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

t.test('a draft is restored for its conversation after a reload and cleared on send', async (t) => {
  const storage = memoryStorage();
  new Drafts(storage, 7).save({ type: 'stream', stream: 'general', topic: 'Lunch' }, 'half a thought');
  const reloaded = new Drafts(storage, 7);
  t.equal(reloaded.load({ type: 'stream', stream: 'General', topic: 'lunch ' }), 'half a thought', 'names compare without case or spaces');
  t.equal(reloaded.load({ type: 'stream', stream: 'general', topic: 'dinner' }), '', 'another topic has its own draft');
  reloaded.clear({ type: 'stream', stream: 'general', topic: 'Lunch' });
  t.equal(storage.items.size, 0);
});

t.test('direct drafts do not depend on the order of recipients, and each person has their own', async (t) => {
  const storage = memoryStorage();
  new Drafts(storage, 7).save({ type: 'direct', to: 'bo@x, ann@x' }, 'hi both');
  t.equal(new Drafts(storage, 7).load({ type: 'direct', to: 'ann@x,bo@x' }), 'hi both');
  t.equal(new Drafts(storage, 8).load({ type: 'direct', to: 'ann@x,bo@x' }), '');
});

t.test('an empty draft is not kept, and a failing storage loses nothing but the draft', async (t) => {
  const storage = memoryStorage();
  const drafts = new Drafts(storage, 7);
  drafts.save({ type: 'direct', to: 'ann@x' }, '   ');
  t.equal(storage.items.size, 0);
  const broken = new Drafts(
    {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => undefined,
    },
    7,
  );
  t.doesNotThrow(() => broken.save({ type: 'direct', to: 'ann@x' }, 'text'));
  t.equal(broken.load({ type: 'direct', to: 'ann@x' }), '');
});
