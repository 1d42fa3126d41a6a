import path from 'node:path';
import t from 'tap';
import { postFiles, TINY_PNG } from '../helpers/files';
import { responseViolations } from '../helpers/openapi';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

// The parts of zulip-js that read what this slice stores (emoji, attachments).
interface JsClient {
  emojis: { retrieve(params?: Record<string, unknown>): Promise<Record<string, unknown>> };
  callEndpoint(endpoint: string, method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

t.test('zulip-js reads realm emoji and attachments', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const client = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });

  t.test('emojis.retrieve lists an uploaded emoji with its source_url', async (t) => {
    const empty = await client.emojis.retrieve();
    t.strictSame(empty, { result: 'success', msg: '', emoji: {} });
    const added = await postFiles(server.baseUrl, '/realm/emoji/js_wave', server.owner, [
      { field: 'f', filename: 'wave.png', contentType: 'image/png', data: TINY_PNG },
    ]);
    t.equal(added.status, 200);
    const listed = await client.emojis.retrieve();
    t.strictSame(responseViolations('get', '/realm/emoji', listed), []);
    t.strictSame(listed['emoji'], {
      '1': {
        id: '1',
        name: 'js_wave',
        source_url: '/user_avatars/1/emoji/images/1.png',
        still_url: null,
        deactivated: false,
        author_id: 1,
      },
    });
  });

  t.test('callEndpoint reads /attachments after an upload', async (t) => {
    const uploaded = await postFiles(server.baseUrl, '/user_uploads', server.owner, [
      { field: 'f', filename: 'js.txt', contentType: 'text/plain', data: Buffer.from('hello js') },
    ]);
    const uri = String(uploaded.json()['uri']);
    const listed = await client.callEndpoint('/attachments', 'GET');
    t.equal(listed['result'], 'success');
    t.strictSame(responseViolations('get', '/attachments', listed), []);
    const attachments = listed['attachments'] as { path_id: string; size: number }[];
    hasFields(t, attachments, [{ path_id: uri.slice('/user_uploads/'.length), size: 8 }]);
    t.equal(listed['upload_space_used'], 8);
  });
});
