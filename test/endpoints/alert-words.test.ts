import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember, fetchMessage } from '../helpers/fixtures';
import { startServer } from '../helpers/server';

t.test('alert words', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');

  t.test('alert_words must be a JSON list of strings', async (t) => {
    const res = await api.as(alice).post('/users/me/alert_words', { alert_words: 'deploy' });
    t.strictSame(res.body, { result: 'error', msg: 'Argument "alert_words" is not valid JSON.', code: 'BAD_REQUEST' });
  });

  t.test('words are added once, whatever their case, and removed', async (t) => {
    const added = await api.as(alice).post('/users/me/alert_words', { alert_words: ['deploy', ' Outage ', 'DEPLOY'] });
    t.strictSame(added.body['alert_words'], ['deploy', 'Outage']);
    t.strictSame((await api.as(alice).get('/users/me/alert_words')).body['alert_words'], ['deploy', 'Outage']);
    const removed = await api.as(alice).call('DELETE', '/users/me/alert_words', { alert_words: ['OUTAGE'] });
    t.strictSame(removed.body['alert_words'], ['deploy']);
    t.strictSame((await api.get('/users/me/alert_words')).body['alert_words'], [], 'words are per user');
  });

  t.test('a message containing a user alert word gets has_alert_word for that user', async (t) => {
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'ops', content: 'We will Deploy at noon' });
    const forAlice = await fetchMessage(api.as(alice), sent.body['id']);
    t.strictSame(forAlice['flags'], ['has_alert_word']);
    const forOwner = await fetchMessage(api, sent.body['id']);
    t.strictSame(forOwner['flags'], []);
    const partial = await api.post('/messages', { type: 'stream', to: 'general', topic: 'ops', content: 'redeployment' });
    const noMatch = await fetchMessage(api.as(alice), partial.body['id']);
    t.strictSame(noMatch['flags'], [], 'only whole words match');
  });

  t.test("a sender's own message never gets has_alert_word", async (t) => {
    const sent = await api.as(alice).post('/messages', { type: 'stream', to: 'general', topic: 'ops', content: 'I will deploy now' });
    // Sent through the API, not a human client: the sender's copy is neither read nor alerted.
    t.strictSame((await fetchMessage(api.as(alice), sent.body['id']))['flags'], []);
  });
});
