import t from 'tap';
import type { MessageSnapshot } from '../../src/web/common/types';
import { historyNames, historyVersions, offersEditHistory } from '../../src/web/app/edit-history-versions';
import { subscription, user } from './fixtures';

const names = historyNames({
  users: new Map([
    [1, user(1, 'Ada')],
    [2, user(2, 'Bo')],
  ]),
  streams: new Map([
    [10, subscription(10, 'general')],
    [11, subscription(11, 'design')],
  ]),
});

const DIFF = '<div><p>version <span class="highlight_text_inserted">2</span> <span class="highlight_text_deleted">1</span></p></div>';

const original: MessageSnapshot = {
  content: 'version 1',
  rendered_content: '<p>version 1</p>',
  timestamp: 100,
  topic: 'plans',
  user_id: 1,
};

/** Ada's edit of the content, from version 1 to version 2. */
const contentEdit: MessageSnapshot = {
  content: 'version 2',
  rendered_content: '<p>version 2</p>',
  prev_content: 'version 1',
  prev_rendered_content: '<p>version 1</p>',
  content_html_diff: DIFF,
  timestamp: 200,
  topic: 'plans',
  user_id: 1,
};

t.test('each version says who and what: posted, then a content edit with its diff, then a topic change', async (t) => {
  const versions = historyVersions(
    [
      original,
      contentEdit,
      { content: 'version 2', rendered_content: '<p>version 2</p>', prev_topic: 'plans', timestamp: 300, topic: 'schedule', user_id: 2 },
    ],
    names,
  );
  t.strictSame(versions, [
    { heading: 'Posted by Ada', timestamp: 100, changes: [], html: '<p>version 1</p>' },
    { heading: 'Edited by Ada', timestamp: 200, changes: [], html: DIFF },
    { heading: 'Moved by Bo', timestamp: 300, changes: ['Topic changed from plans to schedule'], html: null },
  ]);
});

t.test('a move to another stream names both streams; one edit may change content, topic and stream', async (t) => {
  const versions = historyVersions(
    [original, { ...contentEdit, prev_topic: 'plans', prev_stream: 10, stream: 11, topic: 'schedule', user_id: 2 }],
    names,
  );
  t.strictSame(versions[1], {
    heading: 'Edited by Bo',
    timestamp: 200,
    changes: ['Topic changed from plans to schedule', 'Moved from #general to #design'],
    html: DIFF,
  });
});

t.test('people and streams the page does not know, and a content edit without a diff', async (t) => {
  const versions = historyVersions(
    [
      { ...original, user_id: 9 },
      {
        content: 'version 2',
        rendered_content: '<p>version 2</p>',
        prev_content: 'version 1',
        prev_stream: 12,
        stream: 10,
        timestamp: 200,
        topic: 'plans',
        user_id: null,
      },
    ],
    names,
  );
  t.strictSame(versions, [
    { heading: 'Posted by Unknown person', timestamp: 100, changes: [], html: '<p>version 1</p>' },
    { heading: 'Edited by Unknown person', timestamp: 200, changes: ['Moved from #unknown stream to #general'], html: '<p>version 2</p>' },
  ]);
});

t.test('the history is offered for an edited message unless the organization turned it off', async (t) => {
  t.equal(offersEditHistory({}, { last_edit_timestamp: 200 }), true, 'allowed by default');
  t.equal(offersEditHistory({ realm_allow_edit_history: true }, { last_edit_timestamp: 200 }), true);
  t.equal(offersEditHistory({ realm_allow_edit_history: false }, { last_edit_timestamp: 200 }), false);
  t.equal(offersEditHistory({ realm_allow_edit_history: true }, {}), false, 'a message never edited has no history to show');
});
