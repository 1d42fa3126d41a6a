import path from 'node:path';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { sendToStream } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { STREAM_EVENTS_TOPIC, createStream } from '../helpers/stream-notices';
import { hasFields } from '../helpers/exact';

// The official JavaScript client's stream reads; zulip-js has no type declarations, so this
// is the slice of its surface the test uses.
type Body = Record<string, unknown>;
interface JsClient {
  streams: {
    retrieve(params?: Body): Promise<Body>;
    getStreamId(stream: string): Promise<Body>;
    subscriptions: { retrieve(params?: Body): Promise<Body> };
    topics: { retrieve(params: { stream_id: number }): Promise<Body> };
  };
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

t.test('zulip-js reads streams, stream IDs, topics and subscriptions', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const client = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });
  const ownerId = (await api.get('/users/me')).body['user_id'] as number;
  const { noticeId } = await createStream(api, 'js-reads');
  const first = await sendToStream(api, 'js-reads', 'alpha', 'one');
  const second = await sendToStream(api, 'js-reads', 'beta', 'two');

  t.test('an unknown stream name is an error', async (t) => {
    const res = await client.streams.getStreamId('nonexistent');
    t.strictSame(res, { result: 'error', msg: "Invalid stream name 'nonexistent'", code: 'BAD_REQUEST' });
  });

  const found = await client.streams.getStreamId('js-reads');
  t.equal(found['result'], 'success', JSON.stringify(found));
  const streamId = found['stream_id'] as number;

  t.test('streams.retrieve lists the stream', async (t) => {
    const res = await client.streams.retrieve({ include_default: true });
    const stream = (res['streams'] as Body[]).find((s) => s['stream_id'] === streamId);
    // The notification bot's new-stream notice is the stream's first message.
    hasFields(t, stream, { name: 'js-reads', invite_only: false, is_default: false, first_message_id: noticeId });
  });

  t.test('streams.topics.retrieve lists the topics newest first', async (t) => {
    const res = await client.streams.topics.retrieve({ stream_id: streamId });
    t.strictSame(res, {
      result: 'success',
      msg: '',
      topics: [
        { name: 'beta', max_id: second },
        { name: 'alpha', max_id: first },
        { name: STREAM_EVENTS_TOPIC, max_id: noticeId },
      ],
    });
  });

  t.test('streams.subscriptions.retrieve lists the subscriptions with their subscribers', async (t) => {
    const res = await client.streams.subscriptions.retrieve({ include_subscribers: true });
    const subscription = (res['subscriptions'] as Body[]).find((s) => s['stream_id'] === streamId);
    hasFields(t, subscription, { name: 'js-reads', is_muted: false, pin_to_top: false, subscribers: [ownerId] });
  });
});
