import t from 'tap';
import { loadConfig } from '../../src/config';

t.test('delete_topic works in batches of 100 within a 50-second budget by default', async (t) => {
  t.strictSame(loadConfig({}).deleteTopic, { timeBudgetMs: 50_000, batchSize: 100 });
});

t.test('tests may shrink the budget to 0 and the batch to 1, but not below', async (t) => {
  t.strictSame(loadConfig({ DELETE_TOPIC_TIME_BUDGET_MS: '0', DELETE_TOPIC_BATCH_SIZE: '1' }).deleteTopic, {
    timeBudgetMs: 0,
    batchSize: 1,
  });
  t.throws(() => loadConfig({ DELETE_TOPIC_BATCH_SIZE: '0' }), { message: /DELETE_TOPIC_BATCH_SIZE="0"/ });
  t.throws(() => loadConfig({ DELETE_TOPIC_TIME_BUDGET_MS: '-1' }), { message: /DELETE_TOPIC_TIME_BUDGET_MS="-1"/ });
});
