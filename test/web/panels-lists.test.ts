import t from 'tap';
import { adminUserOrder, isDeactivated } from '../../src/web/app/panels/admin-dialog';
import { matchesStreamFilter } from '../../src/web/app/panels/streams-dialog';
import { user } from './panels-fixtures';

t.test('the streams filter matches a part of the name or description, ignoring case', async (t) => {
  const design = { name: 'Design', description: 'Pixels and fonts' };
  t.equal(matchesStreamFilter(design, 'des'), true);
  t.equal(matchesStreamFilter(design, 'FONT'), true);
  t.equal(matchesStreamFilter(design, '  '), true, 'an empty filter shows every stream');
  t.equal(matchesStreamFilter(design, 'sales'), false);
});

t.test('administration lists active people first, then deactivated ones, each by name', async (t) => {
  const order = adminUserOrder([
    user(1, { full_name: 'Zed' }),
    user(2, { full_name: 'Amy', is_active: false }),
    user(3, { full_name: 'Bea' }),
  ]);
  t.strictSame(
    order.map((person) => person.full_name),
    ['Bea', 'Zed', 'Amy'],
  );
});

t.test('only an explicit is_active false means deactivated', async (t) => {
  t.equal(isDeactivated({ is_active: false }), true);
  t.equal(isDeactivated({ is_active: true }), false);
  t.equal(isDeactivated({} as { is_active: boolean }), false);
});
