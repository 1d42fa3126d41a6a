import t from 'tap';
import { z } from 'zod';
import { ApiError } from '../../workers/lib/errors';
import { json, param, parseParams } from '../../workers/lib/params';
import { hasFields } from '../helpers/exact';

const schema = z.object({
  flag: param.bool(false),
  count: param.optionalInt(),
  names: json(z.array(z.string()).max(2)).optional(),
  title: z.string().max(5).optional(),
  kind: z.enum(['a', 'b']).optional(),
  topic: z.string().optional(),
});

function errorOf(raw: Record<string, string>): Record<string, unknown> {
  try {
    parseParams(schema, { subject: 'topic' }, raw, {});
  } catch (err) {
    if (err instanceof ApiError) return err.toBody();
    throw err;
  }
  throw new Error('expected an error');
}

t.test('JSON values are decoded once and null means absent', async (t) => {
  const { values, ignored } = parseParams(schema, {}, { flag: 'true', count: '7', names: '["x"]', extra: '1' }, {});
  t.strictSame(values, { flag: true, count: 7, names: ['x'] });
  t.strictSame(ignored, ['extra']);
  t.strictSame(parseParams(schema, {}, { flag: 'null', count: 'null' }, {}).values, { flag: false, count: undefined });
});

t.test('integers beyond the safe range are refused before they reach SQLite', async (t) => {
  hasFields(t, errorOf({ count: '9007199254740993' }), { code: 'REQUEST_VARIABLE_INVALID', msg: 'count is too large' });
  hasFields(t, errorOf({ count: '-9007199254740993' }), { code: 'REQUEST_VARIABLE_INVALID', msg: 'count is too small' });
});

t.test('each kind of bad value has a fixed message', async (t) => {
  hasFields(t, errorOf({ flag: 'nope' }), { code: 'BAD_REQUEST', msg: 'Argument "flag" is not valid JSON.' });
  hasFields(t, errorOf({ flag: '1' }), { code: 'REQUEST_VARIABLE_INVALID', msg: 'flag is not a boolean', var_name: 'flag' });
  hasFields(t, errorOf({ count: '1.5' }), { msg: 'count is not an integer' });
  hasFields(t, errorOf({ names: '"x"' }), { msg: 'names is not a list' });
  hasFields(t, errorOf({ names: '[1]' }), { msg: 'names[0] is not a string' });
  hasFields(t, errorOf({ names: '["a","b","c"]' }), { msg: 'names has too many items (limit: 2)' });
  hasFields(t, errorOf({ title: 'too long' }), { msg: 'title is too long (limit: 5 characters)' });
  hasFields(t, errorOf({ kind: 'c' }), { msg: 'Invalid kind' });
  hasFields(t, errorOf({ topic: 'a', subject: 'b' }), { code: 'REQUEST_CONFUSING_VAR' });
});
