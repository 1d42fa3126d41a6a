import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { startServer } from '../helpers/server';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

t.test('code playgrounds', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const member = await createMember(owner, 'Member');
  const valid = { name: 'Python playground', lexer_language: 'Python', url_prefix: 'https://python.example.com' };

  t.test('errors', async (t) => {
    t.test('only administrators may add or remove playgrounds', async (t) => {
      t.strictSame(
        (await owner.as(member).post('/realm/playgrounds', valid)).body,
        error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
      );
      t.strictSame(
        (await owner.as(member).call('DELETE', '/realm/playgrounds/1')).body,
        error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
      );
    });
    t.test('every parameter is required', async (t) => {
      const res = await owner.post('/realm/playgrounds', { name: 'x', url_prefix: 'https://python.example.com' });
      t.strictSame(res.body, { ...error("Missing 'lexer_language' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'lexer_language' });
    });
    t.test('the URL prefix must be a URL', async (t) => {
      t.strictSame(
        (await owner.post('/realm/playgrounds', { ...valid, url_prefix: 'https://invalid-url' })).body,
        error('url_prefix is not a URL'),
      );
      t.strictSame(
        (await owner.post('/realm/playgrounds', { ...valid, url_prefix: 'javascript:alert(1)' })).body,
        error('url_prefix is not a URL'),
      );
    });
    t.test('the lexer language has a character set and a length limit', async (t) => {
      t.strictSame(
        (await owner.post('/realm/playgrounds', { ...valid, lexer_language: 'a$b$c' })).body,
        error('Invalid characters in lexer language'),
      );
      const long = await owner.post('/realm/playgrounds', { ...valid, lexer_language: 'x'.repeat(41) });
      t.strictSame(long.body, {
        ...error('lexer_language is too long (limit: 40 characters)', 'REQUEST_VARIABLE_INVALID'),
        var_name: 'lexer_language',
      });
    });
    t.test('an unknown playground cannot be removed', async (t) => {
      t.strictSame((await owner.call('DELETE', '/realm/playgrounds/999')).body, error('Invalid playground'));
    });
  });

  t.test('add and remove a playground; register and the event carry the list', async (t) => {
    const reader = await EventReader.register(owner.as(member), { event_types: ['realm_playgrounds'] });
    const added = await owner.post('/realm/playgrounds', { ...valid, name: '  Python playground  ' });
    t.equal(added.status, 200);
    t.strictSame(responseViolations('post', '/realm/playgrounds', added.body), [], 'the body conforms to the reference OpenAPI');
    const id = added.body['id'] as number;
    const playground = { id, name: 'Python playground', lexer_language: 'Python', url_prefix: 'https://python.example.com' };
    t.strictSame(await reader.nextPayloads(), [{ type: 'realm_playgrounds', realm_playgrounds: [playground] }]);
    const registered = await owner.as(member).post('/register', { fetch_event_types: ['realm_playgrounds'] });
    t.strictSame(registered.body['realm_playgrounds'], [playground]);

    const duplicate = await owner.post('/realm/playgrounds', valid);
    t.strictSame(duplicate.body, error('Realm playground with this Realm, Lexer language and Name already exists.'));

    t.strictSame((await owner.call('DELETE', `/realm/playgrounds/${id}`)).body, { result: 'success', msg: '' });
    t.strictSame(await reader.nextPayloads(), [{ type: 'realm_playgrounds', realm_playgrounds: [] }]);
  });

  t.test('code blocks name their language for the client-side playground links', async (t) => {
    const rendered = await owner.post('/messages/render', { content: '```py\nprint(1)\n```' });
    t.match(String(rendered.body['rendered']), /<div class="codehilite" data-code-language="Python">/);
  });
});
