import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { rawRequest } from '../helpers/files';
import { REPO_ROOT, startServer } from '../helpers/server';

/** Where a set's images live in its npm package, and the version its URLs carry. */
function packageImage(packageName: string, imageDir: string, file: string): { version: string; bytes: Buffer } {
  const root = path.join(REPO_ROOT, 'node_modules', packageName);
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  return { version, bytes: fs.readFileSync(path.join(root, imageDir, file)) };
}

t.test("emoji images are served from the emoji sets' packages", async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const modern = packageImage('emoji-datasource-google', 'img/google/64', '1f44d.png');

  t.test("an emoji's image has a year of immutable caching", async (t) => {
    const res = await rawRequest(server.baseUrl, `/static/emoji/vendora-${modern.version}/1f44d.png`);
    t.equal(res.status, 200);
    t.equal(res.headers['content-type'], 'image/png');
    t.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    t.strictSame(res.body, modern.bytes);
  });

  t.test('the alternative set is its own package', async (t) => {
    const alternative = packageImage('emoji-datasource-twitter', 'img/twitter/64', '1f44d.png');
    const res = await rawRequest(server.baseUrl, `/static/emoji/vendorb-${alternative.version}/1f44d.png`);
    t.equal(res.status, 200);
    t.strictSame(res.body, alternative.bytes);
    t.not(Buffer.compare(res.body, modern.bytes), 0, 'another drawing than the modern set');
  });

  t.test("a code without U+FE0F finds the package's fully qualified file", async (t) => {
    const heart = packageImage('emoji-datasource-google', 'img/google/64', '2764-fe0f.png');
    const res = await rawRequest(server.baseUrl, `/static/emoji/vendora-${modern.version}/2764.png`);
    t.equal(res.status, 200);
    t.strictSame(res.body, heart.bytes);
  });

  t.test('an unknown emoji, set, version or path is a JSON 404, as any unknown static file', async (t) => {
    for (const url of [
      `/static/emoji/vendora-${modern.version}/ffffff.png`,
      `/static/emoji/vendorz-${modern.version}/1f44d.png`,
      '/static/emoji/vendora-0.0.1/1f44d.png',
      `/static/emoji/vendora-${modern.version}/../package.json`,
      `/static/emoji/vendora-${modern.version}/1f44d.png.gz`,
    ]) {
      const res = await rawRequest(server.baseUrl, url);
      t.equal(res.status, 404, url);
      t.strictSame(JSON.parse(res.body.toString('utf8')), { result: 'error', msg: 'Not found' }, url);
    }
  });
});
