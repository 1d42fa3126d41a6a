import t from 'tap';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';

// CONTRACT_CHECKS (test servers turn it on): a success body that breaks its route's declared
// result schema is a 500 naming the route and the zod issue path, never a silent success.
t.test('a body that breaks its result schema answers 500 with the route and the issue path', async (t) => {
  const server = await startServer({ env: { LOG_LEVEL: 'error' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);

  const conforming = await api.post('/__test__/broken_contract', { fault: 'none' });
  t.equal(conforming.status, 200);
  t.strictSame(conforming.body, { result: 'success', msg: '', user_id: 1, email: 'a@example.com' });

  const cases = [
    { fault: 'retyped', issue: 'user_id: Invalid input: expected number, received string' },
    { fault: 'extra', issue: '(root): Unrecognized key: "is_admin"' },
    { fault: 'missing', issue: 'email: Invalid input: expected string, received undefined' },
  ];
  for (const { fault, issue } of cases) {
    const res = await api.post('/__test__/broken_contract', { fault });
    t.equal(res.status, 500, `${fault}: 500`);
    t.strictSame(
      res.body,
      {
        result: 'error',
        msg: `POST /__test__/broken_contract answered a body its result schema rejects: ${issue}`,
        code: 'CONTRACT_VIOLATION',
      },
      `${fault}: the route and the issue are named`,
    );
  }
  const logged = /"route":"POST \/__test__\/broken_contract".*"msg":"contract violation"/;
  t.match(await server.logLine((line) => logged.test(line)), logged, 'and logged');
});

t.test('without CONTRACT_CHECKS (production) the body is not checked', async (t) => {
  const server = await startServer({ env: { CONTRACT_CHECKS: '0' } });
  t.teardown(() => server.stop());
  const res = await new ApiClient(server.baseUrl, server.owner).post('/__test__/broken_contract', { fault: 'retyped' });
  t.equal(res.status, 200);
  t.strictSame(res.body, { result: 'success', msg: '', user_id: '1', email: 'a@example.com' });
});
