import t from 'tap';
import { uploadInto, type ComposeBox } from '../../src/web/app/upload';
import { Drafts, type DraftConversation, type DraftStorage } from '../../src/web/state/drafts';

const LUNCH: DraftConversation = { type: 'stream', stream: 'general', topic: 'Lunch' };
const DINNER: DraftConversation = { type: 'stream', stream: 'general', topic: 'Dinner' };

function memoryStorage(): DraftStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

/** A compose box as compose.tsx keeps it: one text, saved as the shown conversation's draft. */
function composeBox(shown: DraftConversation, text: string): ComposeBox & { text: string; show(conversation: DraftConversation): void } {
  const drafts = new Drafts(memoryStorage(), 7);
  drafts.save(shown, text);
  const box = {
    text,
    drafts,
    conversation: shown,
    shown: () => box.conversation,
    show(conversation: DraftConversation) {
      box.conversation = conversation;
      box.text = drafts.load(conversation);
    },
    edit(change: (text: string) => string) {
      box.text = change(box.text);
      drafts.save(box.conversation, box.text);
    },
  };
  return box;
}

/** An upload the test finishes when it wants, with the URL it gives. */
function heldUpload(): { upload: (file: File) => Promise<string>; finish(url: string): void } {
  let finish: (url: string) => void = () => undefined;
  const answer = new Promise<string>((resolve) => (finish = resolve));
  return { upload: () => answer, finish: (url) => finish(url) };
}

const file = { name: 'plan [v2].pdf' } as File;

t.test('an upload finished in the same conversation is linked on its own line in the box and its draft', async (t) => {
  const box = composeBox(LUNCH, 'see the plan');
  const held = heldUpload();
  const uploading = uploadInto(box, LUNCH, file, () => undefined, held.upload);
  held.finish('/user_uploads/1/ab/plan.pdf');
  await uploading;
  t.strictSame(box.text, 'see the plan\n[plan v2.pdf](/user_uploads/1/ab/plan.pdf)\n');
  t.strictSame(box.drafts?.load(LUNCH), 'see the plan\n[plan v2.pdf](/user_uploads/1/ab/plan.pdf)\n');
});

t.test('an upload finished after switching conversation lands in the conversation it started in', async (t) => {
  const box = composeBox(LUNCH, 'see the plan');
  box.drafts?.save(DINNER, 'pizza?');
  const held = heldUpload();
  const uploading = uploadInto(box, LUNCH, file, () => undefined, held.upload);
  box.show(DINNER);
  held.finish('/user_uploads/1/ab/plan.pdf');
  await uploading;
  t.strictSame(box.text, 'pizza?', 'the box showing another conversation is left as it is');
  t.strictSame(box.drafts?.load(DINNER), 'pizza?');
  t.strictSame(
    box.drafts?.load(LUNCH),
    'see the plan\n[plan v2.pdf](/user_uploads/1/ab/plan.pdf)\n',
    "the link is in the first conversation's draft",
  );
  box.show(LUNCH);
  t.strictSame(box.text, 'see the plan\n[plan v2.pdf](/user_uploads/1/ab/plan.pdf)\n', 'and there when the person goes back');
});
