/**
 * The dialect features the fixture does not cover (they need realm data), with the shapes from
 * api-notes §g, plus the sanitization guarantees.
 */
import t from 'tap';
import { emojiCodeForName, renderMarkdown, topicLinks, type MarkdownContext, type RenderResult } from '../../workers/markdown';
import { katexAvailable } from '../../workers/markdown/math';
import { sanitizeRenderedHtml } from '../../workers/markdown/sanitize';

const HAMLET = { id: 10, full_name: 'King Hamlet', email: 'hamlet@example.com', is_active: true };
const OTHELLO = { id: 11, full_name: 'Othello', email: 'othello@example.com', is_active: false };
const CORDELIA = { id: 12, full_name: "Cordelia, Lear's daughter", email: 'cordelia@example.com', is_active: true };

const CONTEXT: MarkdownContext = {
  realmUrl: 'http://localhost:9991',
  users: [HAMLET, OTHELLO, CORDELIA],
  userGroups: [{ id: 5, name: 'support', members: [10, 12] }],
  streams: [
    { id: 1, name: 'Denmark' },
    { id: 2, name: 'core team' },
  ],
  realmEmoji: [
    { id: '3', name: 'green_tick', source_url: '/user_avatars/2/emoji/images/3.png', deactivated: false },
    { id: '4', name: 'retired', source_url: '/user_avatars/2/emoji/images/4.png', deactivated: true },
  ],
  linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' }],
  alertWords: new Map([
    [10, ['lunch']],
    [12, ['Deploy']],
  ]),
};

function render(source: string, overrides: Partial<MarkdownContext> = {}): RenderResult {
  return renderMarkdown(source, { ...CONTEXT, ...overrides });
}

function html(source: string, overrides: Partial<MarkdownContext> = {}): string {
  return render(source, overrides).html;
}

const SMILE = '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>';

t.test('user mentions', async (t) => {
  t.test('a mention by full name links the user and notifies them', async (t) => {
    const result = render('hi @**King Hamlet**');
    t.equal(result.html, '<p>hi <span class="user-mention" data-user-id="10">@King Hamlet</span></p>');
    t.strictSame(result.mentionedUserIds, [10]);
    t.equal(result.wildcardMentioned, false);
  });

  t.test('names match case-insensitively and show the name as stored', async (t) => {
    t.equal(html('@**king hamlet**'), '<p><span class="user-mention" data-user-id="10">@King Hamlet</span></p>');
  });

  t.test('the name|id and |id forms pick the user by id', async (t) => {
    const result = render('@**King Hamlet|10** and @**|10**');
    t.equal(
      result.html,
      '<p><span class="user-mention" data-user-id="10">@King Hamlet</span> and ' +
        '<span class="user-mention" data-user-id="10">@King Hamlet</span></p>',
    );
    t.strictSame(result.mentionedUserIds, [10]);
  });

  t.test('a name|id pair naming two different users is not a mention', async (t) => {
    t.equal(html('@**Othello|10**'), '<p>@<strong>Othello|10</strong></p>');
  });

  t.test('a silent mention shows the name without @ and notifies nobody', async (t) => {
    const result = render('@_**King Hamlet**');
    t.equal(result.html, '<p><span class="user-mention silent" data-user-id="10">King Hamlet</span></p>');
    t.strictSame(result.mentionedUserIds, []);
  });

  t.test('unknown and deactivated users fall back to bold text', async (t) => {
    const result = render('@**Nobody** @**Othello**');
    t.equal(result.html, '<p>@<strong>Nobody</strong> @<strong>Othello</strong></p>');
    t.strictSame(result.mentionedUserIds, []);
  });

  t.test('an @ inside a word does not start a mention', async (t) => {
    t.equal(html('mail@**King Hamlet**'), '<p>mail@<strong>King Hamlet</strong></p>');
  });

  t.test('names are escaped', async (t) => {
    t.equal(
      html("@**Cordelia, Lear's daughter**"),
      '<p><span class="user-mention" data-user-id="12">@Cordelia, Lear\'s daughter</span></p>',
    );
  });
});

t.test('user group mentions', async (t) => {
  t.test('a group mention notifies the group and its members', async (t) => {
    const result = render('ping @*support*');
    t.equal(result.html, '<p>ping <span class="user-group-mention" data-user-group-id="5">@support</span></p>');
    t.strictSame(result.mentionedGroupIds, [5]);
    t.strictSame(result.mentionedUserIds, [10, 12]);
  });

  t.test('a silent group mention notifies nobody', async (t) => {
    const result = render('@_*support*');
    t.equal(result.html, '<p><span class="user-group-mention silent" data-user-group-id="5">support</span></p>');
    t.strictSame(result.mentionedGroupIds, []);
    t.strictSame(result.mentionedUserIds, []);
  });

  t.test('an unknown group is emphasis', async (t) => {
    t.equal(html('@*nobody*'), '<p>@<em>nobody</em></p>');
  });
});

t.test('wildcard mentions', async (t) => {
  for (const wildcard of ['all', 'everyone', 'stream', 'topic']) {
    t.test(`@**${wildcard}** is a wildcard mention`, async (t) => {
      const result = render(`@**${wildcard}**`);
      t.equal(result.html, `<p><span class="user-mention" data-user-id="*">@${wildcard}</span></p>`);
      t.equal(result.wildcardMentioned, true);
      t.strictSame(result.mentionedUserIds, []);
    });
  }

  t.test('a silent wildcard mention does not set the flag', async (t) => {
    const result = render('@_**all**');
    t.equal(result.html, '<p><span class="user-mention silent" data-user-id="*">all</span></p>');
    t.equal(result.wildcardMentioned, false);
  });
});

t.test('mentions inside quotes are silent', async (t) => {
  const quoted = render('> @**King Hamlet** asked @*support* and @**all**');
  t.equal(
    quoted.html,
    '<blockquote>\n<p><span class="user-mention silent" data-user-id="10">King Hamlet</span> asked ' +
      '<span class="user-group-mention silent" data-user-group-id="5">support</span> and ' +
      '<span class="user-mention silent" data-user-id="*">all</span></p>\n</blockquote>',
  );
  t.strictSame(quoted.mentionedUserIds, []);
  t.strictSame(quoted.mentionedGroupIds, []);
  t.equal(quoted.wildcardMentioned, false);
  const fenced = render('```quote\n@**King Hamlet**\n```');
  t.equal(fenced.html, '<blockquote>\n<p><span class="user-mention silent" data-user-id="10">King Hamlet</span></p>\n</blockquote>');
  t.strictSame(fenced.mentionedUserIds, []);
});

t.test('stream and topic links', async (t) => {
  t.test('a stream link points at the stream narrow', async (t) => {
    t.equal(html('#**Denmark**'), '<p><a class="stream" data-stream-id="1" href="/#narrow/stream/1-Denmark">#Denmark</a></p>');
  });

  t.test('spaces in stream names become dashes in the URL', async (t) => {
    t.equal(html('#**core team**'), '<p><a class="stream" data-stream-id="2" href="/#narrow/stream/2-core-team">#core team</a></p>');
  });

  t.test('a topic link hash-encodes the topic', async (t) => {
    t.equal(
      html('#**Denmark>some topic**'),
      '<p><a class="stream-topic" data-stream-id="1" href="/#narrow/stream/1-Denmark/topic/some.20topic">#Denmark &gt; some topic</a></p>',
    );
    t.equal(
      html('#**Denmark>#1234**'),
      '<p><a class="stream-topic" data-stream-id="1" href="/#narrow/stream/1-Denmark/topic/.231234">#Denmark &gt; #1234</a></p>',
    );
    t.equal(
      html('#**Denmark>привет.x**'),
      '<p><a class="stream-topic" data-stream-id="1" href="/#narrow/stream/1-Denmark/topic/.D0.BF.D1.80.D0.B8.D0.B2.D0.B5.D1.82.2Ex">#Denmark &gt; привет.x</a></p>',
    );
  });

  t.test('an unknown stream falls back to bold text', async (t) => {
    t.equal(html('#**Narnia**'), '<p>#<strong>Narnia</strong></p>');
    t.equal(html('#**Narnia>topic**'), '<p>#<strong>Narnia&gt;topic</strong></p>');
  });
});

t.test('emoji', async (t) => {
  t.test('a Unicode emoji name renders as a span with the codepoint class', async (t) => {
    t.equal(html(':smile:'), `<p>${SMILE}</p>`);
    t.equal(html(':+1:'), '<p><span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span></p>');
  });

  t.test('a realm emoji renders as an image and wins over Unicode names', async (t) => {
    t.equal(
      html(':green_tick:'),
      '<p><img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/3.png" title="green tick"></p>',
    );
  });

  t.test('a deactivated realm emoji and an unknown name stay text', async (t) => {
    t.equal(html(':retired: :not_an_emoji:'), '<p>:retired: :not_an_emoji:</p>');
  });

  t.test('the built-in image emoji renders as an image', async (t) => {
    t.equal(
      html(':teamchat:'),
      '<p><img alt=":teamchat:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/teamchat.png" title="teamchat"></p>',
    );
  });

  t.test('a keycap emoji inside a run of text is found, a bare digit is not', async (t) => {
    const keycap = (name: string, code: string): string =>
      `<span aria-label="${name}" class="emoji emoji-${code}-20e3" role="img" title="${name}">:${name}:</span>`;
    t.equal(html('press 1\uFE0F\u20E3 now'), `<p>press ${keycap('one', '0031')} now</p>`);
    t.equal(html('x 2\u20E3 y'), `<p>x ${keycap('two', '0032')} y</p>`);
    t.equal(html('see 3 items, 4 more'), '<p>see 3 items, 4 more</p>');
  });

  t.test('a Unicode emoji character renders under its canonical name', async (t) => {
    t.equal(html('💩'), '<p><span aria-label="poop" class="emoji emoji-1f4a9" role="img" title="poop">:poop:</span></p>');
  });

  t.test('emoticons are translated only when the sender enabled it', async (t) => {
    t.equal(html(':) hi'), '<p>:) hi</p>');
    t.equal(html(':) hi', { translateEmoticons: true }), `<p>${SMILE} hi</p>`);
  });

  t.test('emojiCodeForName gives the dash-separated codepoints reactions use', async (t) => {
    t.equal(emojiCodeForName('smile'), '1f642');
    t.equal(emojiCodeForName('heart'), '2764');
    t.equal(emojiCodeForName('one'), '0031-20e3');
    t.equal(emojiCodeForName('not_an_emoji'), undefined);
  });
});

t.test('a /me message is flagged only when the content starts with "/me "', async (t) => {
  const me = render('/me waves');
  t.equal(me.html, '<p>/me waves</p>');
  t.equal(me.isMeMessage, true);
  t.equal(render('hello /me waves').isMeMessage, false);
  t.equal(render('/meow').isMeMessage, false);
});

t.test('fenced code', async (t) => {
  t.test('languages are reported as written and shown canonically', async (t) => {
    const result = render('```Python\nx = 1\n```\n\n~~~ inventedLanguage\ny\n~~~\n\n```\nz\n```');
    t.equal(
      result.html,
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code>' +
        '<span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>\n' +
        '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>y\n</code></pre></div>\n' +
        '<div class="codehilite"><pre><span></span><code>z\n</code></pre></div>',
    );
    t.strictSame(result.codeLanguages, ['Python', 'inventedLanguage']);
  });

  t.test('an unclosed fence runs to the end of the message', async (t) => {
    t.equal(
      html('```js\nlet a = 1;\n\nlet b;'),
      '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code>' +
        '<span class="kd">let</span> <span class="nx">a</span> <span class="o">=</span> <span class="mf">1</span><span class="p">;</span>\n\n' +
        '<span class="kd">let</span> <span class="nx">b</span><span class="p">;</span>\n</code></pre></div>',
    );
  });
});

t.test('quotes', async (t) => {
  t.test('```quote and > produce the same blockquote', async (t) => {
    const expected = '<blockquote>\n<p>To be or <strong>not</strong></p>\n</blockquote>';
    t.equal(html('```quote\nTo be or **not**\n```'), expected);
    t.equal(html('> To be or **not**'), expected);
  });

  t.test('a lone > is text', async (t) => {
    t.equal(html('>'), '<p>&gt;</p>');
  });
});

t.test('spoilers', async (t) => {
  t.equal(
    html('```spoiler The *ending*\nThey all die.\n```'),
    '<div class="spoiler-block"><div class="spoiler-header">\n<p>The <em>ending</em></p>\n</div>' +
      '<div class="spoiler-content" aria-hidden="true">\n<p>They all die.</p>\n</div></div>',
  );
  t.equal(
    html('```spoiler\nhidden\n```'),
    '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n<p>hidden</p>\n</div></div>',
  );
});

t.test('timestamps', async (t) => {
  t.test('ISO, free-form and Unix times become <time> in UTC', async (t) => {
    t.equal(html('<time:2017-06-05T22:30:00+02:00>'), '<p><time datetime="2017-06-05T20:30:00Z">2017-06-05T22:30:00+02:00</time></p>');
    t.equal(html('<time:Jun 5th 2017, 10:30PM>'), '<p><time datetime="2017-06-05T22:30:00Z">Jun 5th 2017, 10:30PM</time></p>');
    t.equal(html('<time:1496701800>'), '<p><time datetime="2017-06-05T22:30:00Z">1496701800</time></p>');
  });

  t.test('text that is not a time is reported, escaped', async (t) => {
    t.equal(
      html('<time:next <b>week</b>>'),
      '<p><span class="timestamp-error">Invalid time format: next &lt;b</span>week&lt;/b&gt;&gt;</p>',
    );
    t.equal(html('<time:June 2017>'), '<p><span class="timestamp-error">Invalid time format: June 2017</span></p>');
  });
});

t.test('math', async (t) => {
  const inline = html('$$x^2$$');
  const block = html('```math\nx^2\n```');
  // KaTeX is a dependency: its absence is a broken install, not another expectation.
  t.equal(katexAvailable(), true, 'KaTeX is installed');
  t.match(inline, /^<p><span class="katex"><span class="katex-mathml"><math /);
  t.match(block, /^<p><span class="katex-display"><span class="katex">/);
  t.equal(html('$$\\error{x}$$'), '<p><span class="tex-error">$$\\error{x}$$</span></p>', 'invalid TeX is an error');
  t.equal(html('costs $5 or $$$'), '<p>costs $5 or $$$</p>', 'dollar signs alone are text');
});

t.test('uploaded files', async (t) => {
  t.test('an uploaded image gets an inline preview through the thumbnail endpoint', async (t) => {
    const result = render('[photo.png](/user_uploads/2/ab/xyz/photo.png)');
    t.equal(
      result.html,
      '<p><a href="/user_uploads/2/ab/xyz/photo.png">photo.png</a></p>\n' +
        '<div class="message_inline_image"><a href="/user_uploads/2/ab/xyz/photo.png" title="photo.png">' +
        '<img data-src-fullsize="/thumbnail?url=user_uploads%2F2%2Fab%2Fxyz%2Fphoto.png&amp;size=full" ' +
        'src="/thumbnail?url=user_uploads%2F2%2Fab%2Fxyz%2Fphoto.png&amp;size=thumbnail"></a></div>',
    );
    t.strictSame(result.uploadedFilePaths, ['/user_uploads/2/ab/xyz/photo.png']);
  });

  t.test('every upload link is reported, absolute or quoted, but only images are previewed', async (t) => {
    const result = render('[notes.pdf](http://localhost:9991/user_uploads/2/cd/notes.pdf)\n\n> [old.png](/user_uploads/2/ef/old.png)');
    t.equal(
      result.html,
      '<p><a href="http://localhost:9991/user_uploads/2/cd/notes.pdf">notes.pdf</a></p>\n' +
        '<blockquote>\n<p><a href="/user_uploads/2/ef/old.png">old.png</a></p>\n</blockquote>',
    );
    t.strictSame(result.uploadedFilePaths, ['/user_uploads/2/cd/notes.pdf', '/user_uploads/2/ef/old.png']);
  });
});

t.test('links', async (t) => {
  t.test('a link into this realm opens in place', async (t) => {
    t.equal(html('[there](http://localhost:9991/#narrow/stream/1-Denmark)'), '<p><a href="#narrow/stream/1-Denmark">there</a></p>');
  });

  t.test('scheme-less targets are completed', async (t) => {
    t.equal(
      html('[site](example.com) [me](me@example.com) [doc](/help)'),
      '<p><a href="http://example.com">site</a> <a href="mailto:me@example.com">me</a> <a href="/help">doc</a></p>',
    );
  });

  t.test('bare URLs, domains and emails are linked', async (t) => {
    t.equal(
      html('see https://example.com/a_(b), example.org and me@example.com.'),
      '<p>see <a href="https://example.com/a_(b)">https://example.com/a_(b)</a>, ' +
        '<a href="http://example.org">example.org</a> and <a href="mailto:me@example.com">me@example.com</a>.</p>',
    );
  });
});

t.test('linkifiers', async (t) => {
  t.test('a pattern match in text links to the expanded template', async (t) => {
    t.equal(html('fixes #224.'), '<p>fixes <a href="https://trac.example.com/ticket/224">#224</a>.</p>');
  });

  t.test('a match glued to a word is not linked', async (t) => {
    t.equal(html('a#224 #224b'), '<p>a#224 #224b</p>');
  });

  t.test('text inside a Markdown link is left alone', async (t) => {
    t.equal(html('[see #224](https://example.com)'), '<p><a href="https://example.com">see #224</a></p>');
  });

  t.test('template values are percent-encoded', async (t) => {
    const linkifiers = [{ id: 2, pattern: 'wiki:(?P<page>[^\\s]+)', url_template: 'https://wiki.example.com/{page}' }];
    t.equal(html('wiki:a/b?c', { linkifiers }), '<p><a href="https://wiki.example.com/a%2Fb%3Fc">wiki:a/b?c</a></p>');
  });

  t.test('invalid patterns and unsafe templates are ignored', async (t) => {
    const linkifiers = [
      { id: 3, pattern: '([', url_template: 'https://example.com' },
      { id: 4, pattern: 'BAD-(?P<id>\\d+)', url_template: 'javascript:alert({id})' },
    ];
    t.equal(html('BAD-1', { linkifiers }), '<p>BAD-1</p>');
  });

  t.test('topic links list linkifier matches and bare URLs in order', async (t) => {
    t.strictSame(topicLinks('fix #123, see https://example.com/x and example.org', CONTEXT), [
      { text: '#123', url: 'https://trac.example.com/ticket/123' },
      { text: 'https://example.com/x', url: 'https://example.com/x' },
      { text: 'example.org', url: 'https://example.org' },
    ]);
    t.strictSame(topicLinks('nothing here', CONTEXT), []);
  });
});

t.test('alert words match whole words case-insensitively', async (t) => {
  t.strictSame(render('Lunch time! Deploying soon').alertWordUserIds, [10]);
  t.strictSame(render('(deploy) at noon').alertWordUserIds, [12]);
  t.strictSame(render('nothing to see').alertWordUserIds, []);
});

t.test('lists', async (t) => {
  t.equal(html('Plan:\n* one\n  * nested\n* two'), '<p>Plan:</p>\n<ul>\n<li>one<ul>\n<li>nested</li>\n</ul>\n</li>\n<li>two</li>\n</ul>');
  t.equal(html('3. c\n4. d'), '<ol start="3">\n<li>c</li>\n<li>d</li>\n</ol>');
});

t.test('sanitization', async (t) => {
  t.test('raw HTML is escaped', async (t) => {
    t.equal(html('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    t.equal(html('<img src=x onerror=alert(1)>'), '<p>&lt;img src=x onerror=alert(1)&gt;</p>');
    t.equal(html('<a href="javascript:alert(1)">x</a>'), '<p>&lt;a href="javascript:alert(1)"&gt;x&lt;/a&gt;</p>');
  });

  t.test('links with unsafe schemes stay literal text', async (t) => {
    t.equal(html('[x](javascript:alert(1))'), '<p>[x](javascript:alert(1))</p>');
    t.equal(html('[x](JaVaScRiPt:alert(1))'), '<p>[x](JaVaScRiPt:alert(1))</p>');
    t.equal(html('[x](data:text/html,<b>hi</b>)'), '<p>[x](data:text/html,&lt;b&gt;hi&lt;/b&gt;)</p>');
    t.equal(html('[x](vbscript:msgbox)'), '<p>[x](vbscript:msgbox)</p>');
  });

  t.test('an entity-encoded scheme cannot sneak a script URL in', async (t) => {
    t.equal(html('[x](jav&#x61;script:alert(1))'), '<p><a href="http://jav&amp;#x61;script:alert(1)">x</a></p>');
  });

  t.test('quotes in a target cannot end the attribute', async (t) => {
    t.equal(html('[x](http://a.com/"onmouseover="alert(1))'), '<p><a href="http://a.com/&quot;onmouseover=&quot;alert(1)">x</a></p>');
  });

  t.test('HTML in code spans, code blocks and link text is inert', async (t) => {
    t.equal(html('`<img src=x onerror=alert(1)>`'), '<p><code>&lt;img src=x onerror=alert(1)&gt;</code></p>');
    t.equal(
      html('```\n<script>alert("x")</script>\n```'),
      '<div class="codehilite"><pre><span></span><code>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\n</code></pre></div>',
    );
    t.equal(
      html('[<img src=x onerror=alert(1)>](https://example.com)'),
      '<p><a href="https://example.com">&lt;img src=x onerror=alert(1)&gt;</a></p>',
    );
  });

  t.test('the sanitizer removes whatever the dialect never produces', async (t) => {
    t.equal(sanitizeRenderedHtml('<script>alert(1)</script><p onmouseover="x()">x</p><iframe src="http://a"></iframe>', false), '<p>x</p>');
    t.equal(
      sanitizeRenderedHtml('<a href="javascript:alert(1)">a</a><a href="jav&#97;script&colon;alert(1)">b</a>', false),
      '<a>a</a><a>b</a>',
    );
    t.equal(sanitizeRenderedHtml('<img src="//evil.example/x.png" onerror="x()">', false), '<img>');
    t.equal(
      sanitizeRenderedHtml('<span class="user-mention evil" style="background:url(x)">y</span>', true),
      '<span class="user-mention">y</span>',
      'unknown classes and styles that could load URLs are dropped',
    );
  });

  t.test('the sanitizer drops an unsafe image URL even if the realm supplied it', async (t) => {
    const realmEmoji = [{ id: '9', name: 'evil', source_url: 'javascript:alert(1)', deactivated: false }];
    t.equal(html(':evil:', { realmEmoji }), '<p><img alt=":evil:" class="emoji" title="evil"></p>');
  });
});

t.test('renders depend on their own context only', async (t) => {
  t.equal(html('@**King Hamlet**', { users: [] }), '<p>@<strong>King Hamlet</strong></p>');
  t.equal(html('@**King Hamlet**'), '<p><span class="user-mention" data-user-id="10">@King Hamlet</span></p>');
  t.equal(html('#224', { linkifiers: [] }), '<p>#224</p>');
});
