import t from 'tap';
import { quoteMarkdown } from '../../src/web/app/reply';
import type { ChatSnapshot } from '../../src/web/common/types';
import { message, user } from './panels-fixtures';

// quoteMarkdown reads only who I am and the people's current names.
const snapshot = { me: user(1), users: new Map([[2, user(2, { full_name: 'Ada Lovelace' })]]) } as unknown as ChatSnapshot;
const quoted = message(42, { sender_id: 2, sender_full_name: 'Old name', stream_id: 7, subject: 'a b' });
const header = '@_**Ada Lovelace|2** [said](http://chat/#narrow/stream/7/topic/a%20b/near/42):\n';

t.test('a quote mentions its sender silently by their current name and links the message', async (t) => {
  t.equal(quoteMarkdown(quoted, 'plain', snapshot, 'http://chat/'), `${header}\`\`\`quote\nplain\n\`\`\`\n`);
});

t.test('a quote fences its Markdown longer than any fence inside it', async (t) => {
  t.equal(
    quoteMarkdown(quoted, '````js\nx\n````', snapshot, 'http://chat/'),
    `${header}\`\`\`\`\`quote\n\`\`\`\`js\nx\n\`\`\`\`\n\`\`\`\`\`\n`,
  );
});
