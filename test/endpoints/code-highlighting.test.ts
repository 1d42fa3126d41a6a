/**
 * Code blocks carry the reference highlighter's token spans (api-notes §g), through the real API:
 * POST /messages/render and a sent message's stored content.
 */
import t from 'tap';
import { fetchMessage } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';

const block = (code: string, language?: string): string =>
  `<div class="codehilite"${language === undefined ? '' : ` data-code-language="${language}"`}><pre><span></span><code>${code}\n</code></pre></div>`;

t.test('code highlighting through the API', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const render = async (content: string): Promise<Record<string, unknown>> => (await api.post('/messages/render', { content })).body;
  const rendered = (html: string) => ({ result: 'success', msg: '', rendered: html });

  t.test('each language gets its tokens, escaped inside the spans', async (t) => {
    t.strictSame(
      await render('```js\nconst x = "a<b" + 1; // hi\n```'),
      rendered(
        block(
          '<span class="kd">const</span> <span class="nx">x</span> <span class="o">=</span> <span class="s2">&quot;a&lt;b&quot;</span>' +
            ' <span class="o">+</span> <span class="mf">1</span><span class="p">;</span> <span class="c1">// hi</span>',
          'JavaScript',
        ),
      ),
    );
    t.strictSame(
      await render('```sh\necho "$HOME" | grep -v x\n```'),
      rendered(
        block(
          '<span class="nb">echo</span> <span class="s2">&quot;</span><span class="nv">$HOME</span><span class="s2">&quot;</span>' +
            ' <span class="p">|</span> grep -v x',
          'Bash',
        ),
      ),
    );
    t.strictSame(
      await render("```sql\nSELECT x FROM t WHERE y = 'a&b';\n```"),
      rendered(
        block(
          '<span class="k">SELECT</span> <span class="n">x</span> <span class="k">FROM</span> <span class="n">t</span>' +
            ' <span class="k">WHERE</span> <span class="n">y</span> <span class="o">=</span> <span class="s1">&#39;a&amp;b&#39;</span><span class="p">;</span>',
          'SQL',
        ),
      ),
    );
    t.strictSame(
      await render('```c\nint main(void) {}\n```'),
      rendered(
        block(
          '<span class="kt">int</span> <span class="nf">main</span><span class="p">(</span><span class="kt">void</span><span class="p">)</span> <span class="p">{}</span>',
          'C',
        ),
      ),
    );
    t.strictSame(await render('```diff\n-a\n+b\n```'), rendered(block('<span class="gd">-a</span>\n<span class="gi">+b</span>', 'Diff')));
    t.strictSame(
      await render('```json\n{"k": [1, true]}\n```'),
      rendered(
        block(
          '<span class="p">{</span><span class="nt">&quot;k&quot;</span><span class="p">:</span> <span class="p">[</span>' +
            '<span class="mi">1</span><span class="p">,</span> <span class="kc">true</span><span class="p">]}</span>',
          'JSON',
        ),
      ),
    );
  });

  t.test('a token spanning lines is split at each newline', async (t) => {
    t.strictSame(
      await render('```python\ns = """a\n\nb"""\n```'),
      rendered(
        block(
          '<span class="n">s</span> <span class="o">=</span> <span class="s2">&quot;&quot;&quot;a</span>\n\n<span class="s2">b&quot;&quot;&quot;</span>',
          'Python',
        ),
      ),
    );
  });

  t.test('unknown, plain-text and missing languages stay plain text', async (t) => {
    t.strictSame(await render('```inventedlanguage\nx = 1\n```'), rendered(block('x = 1', 'inventedlanguage')));
    t.strictSame(await render('```text\nx = 1\n```'), rendered(block('x = 1', 'Text only')));
    t.strictSame(await render('```\nx = "1"\n```'), rendered(block('x = &quot;1&quot;')));
  });

  t.test('each block keeps its own language among blocks of the same code', async (t) => {
    const x = '<span class="n">x</span>';
    t.strictSame(
      await render('```text\nx\n```\n\n> ```python\n> x\n> ```\n\n```\nx\n```\n\n```py\nx\n```'),
      rendered(`${block('x', 'Text only')}\n<blockquote>\n${block(x, 'Python')}\n</blockquote>\n${block('x')}\n${block(x, 'Python')}`),
    );
  });

  t.test('a header line names the language of a block without one', async (t) => {
    // Fenced blocks keep the line; indented blocks drop it unless it names a path.
    t.strictSame(
      await render('```\n#!/bin/sh\nexit\n```'),
      rendered(block('<span class="ch">#!/bin/sh</span>\n<span class="nb">exit</span>')),
    );
    t.strictSame(
      await render('    :::python\n    x = 1'),
      rendered(block('<span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>')),
    );
    t.strictSame(
      await render('    #!/usr/bin/python\n    x'),
      rendered(block('<span class="ch">#!/usr/bin/python</span>\n<span class="n">x</span>')),
    );
  });

  t.test('a sent message stores the highlighted HTML', async (t) => {
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'code', content: '```rust\nfn main() {}\n```' });
    t.equal(sent.status, 200);
    const message = await fetchMessage(api, sent.body['id']);
    t.strictSame(
      message['content'],
      block('<span class="k">fn</span> <span class="nf">main</span><span class="p">()</span> <span class="p">{}</span>', 'Rust'),
    );
  });

  t.test("the realm's default_code_block_language applies to fences that name none", async (t) => {
    const setDefault = async (language: string): Promise<void> => {
      t.strictSame((await api.call('PATCH', '/realm', { default_code_block_language: language })).body, {
        result: 'success',
        msg: '',
        default_code_block_language: 'updated',
      });
    };
    await setDefault('python');
    const x = '<span class="n">x</span>';
    t.strictSame(await render('```\nx\n```'), rendered(block(x, 'Python')), 'a bare fence');
    t.strictSame(await render('```text\nx\n```'), rendered(block('x', 'Text only')), 'a named language wins');
    t.strictSame(await render('    x'), rendered(block('x')), 'an indented block is not a fence');
    t.strictSame(
      await render('````spoiler Title\n```\nx\n```\n````'),
      rendered(
        '<div class="spoiler-block"><div class="spoiler-header">\n<p>Title</p>\n</div><div class="spoiler-content" aria-hidden="true">\n' +
          `${block('x')}\n</div></div>`,
      ),
      'none inside a spoiler',
    );
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'code', content: '```\nx\n```' });
    t.strictSame((await fetchMessage(api, sent.body['id']))['content'], block(x, 'Python'), 'a sent message');
    await setDefault('quote');
    t.strictSame(await render('```\nhi\n```'), rendered('<blockquote>\n<p>hi</p>\n</blockquote>'), 'a default of quote quotes');
    await setDefault('');
    t.strictSame(await render('```\nx\n```'), rendered(block('x')), 'none once cleared');
  });
});
