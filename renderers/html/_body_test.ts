// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import { inputText, isPlainProse, markdownHtml, parsedHtml, toolCallBody } from "./_body.ts";

const md = (text: string): string => markdownHtml(text).toString();
const settings = { redact: true, itemBudget: 8_000 };

Deno.test("markdownHtml() renders CommonMark and GitHub's tables, task lists, strikethrough", () => {
  const html = md(
    "# Head\n\n**bold** _em_ ~~gone~~ `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n" +
      "- [x] done\n- [ ] todo\n\n```ts\nconst x = 1;\n```\n",
  );
  assert.match(html, /<h3>Head<\/h3>/); // below the item's own <h2>
  assert.match(html, /<strong>bold<\/strong> <em>em<\/em> <s>gone<\/s> <code>code<\/code>/);
  assert.match(html, /<table>[\s\S]*<th>a<\/th>[\s\S]*<td>2<\/td>[\s\S]*<\/table>/);
  assert.match(html, /<span class="task" role="img" aria-label="done">☑<\/span> done/);
  assert.match(html, /<span class="task" role="img" aria-label="not done">☐<\/span> todo/);
  assert.match(
    html,
    /<div class="fenced"><p class="lang">ts<\/p><pre class="code"><code>const x = 1;\n<\/code><\/pre><\/div>/,
  );
  assert.doesNotMatch(html, /<input/);
  // A column's alignment is a class: the page's policy ignores style attributes.
  assert.match(
    md("| a | b |\n|:-|-:|\n| 1 | 2 |"),
    /<th class="align-left">a<\/th>\n<th class="align-right">b/,
  );
});

Deno.test("markdownHtml() shows raw HTML as text and makes no unsafe link, image or attribute", () => {
  const attempts = [
    "<script>alert(1)</script>",
    "text <img src=x onerror=alert(1)> more",
    "[click](javascript:alert(1)) [data](data:text/html,<script>alert(1)</script>)",
    "[spaced](  javascript:alert(1)) [entity](&#106;avascript:alert(1)) <javascript:alert(1)>",
    "![img](http://example.com/x.png) ![js](javascript:alert(1))",
    "| <b onclick=x>cell</b> | <script>y</script> |\n|---|---|\n| <img src=x> | ok |",
    '```js"><script>alert(1)</script>\ncode\n```',
    '<a href="javascript:alert(1)">raw</a>',
  ];
  for (const text of attempts) {
    const html = md(text);
    assert.doesNotMatch(html, /<(?:script|img|iframe|svg|input|b )/i, text);
    for (const tag of html.matchAll(/<[a-z][^>]*>/g)) {
      assert.doesNotMatch(tag[0], /\s(?:on\w+|style|src)=/i, text);
    }
    for (const href of html.matchAll(/href="([^"]*)"/g)) {
      assert.match(href[1]!, /^(?:https?:|mailto:)/, text);
    }
  }
  assert.equal(md("[click](javascript:alert(1))"), "<p>[click](javascript:alert(1))</p>");
  assert.equal(md("[d](data:text/html,x)"), "<p>[d](data:text/html,x)</p>");
  assert.match(
    md("![img](http://example.com/x.png)"),
    /<span class="image">\[image: img\]<\/span>/,
  );
  assert.match(md("<https://example.com>"), /<a href="https:\/\/example.com">/);
});

Deno.test("markdownHtml() links only http(s), mailto and in-page addresses; data:image, blob: and the rest stay text", () => {
  const text = [
    "[png](data:image/png;base64,iVBORw0KGgo=) [gif](data:image/gif;base64,R0lGOD==)",
    "[blob](blob:https://example.com/1f2e) [rel](other.html) [proto](//evil.example/x)",
    "[ftp](ftp://example.com/f) [tel](tel:123) <blob:https://example.com/x>",
    "![pic](data:image/webp;base64,UklGRg==)",
  ].join("\n\n");
  const html = md(text);
  assert.deepEqual([...html.matchAll(/href="([^"]*)"/g)], []);
  assert.match(html, /\[png\]\(data:image\/png;base64,iVBORw0KGgo=\)/);
  assert.match(html, /\[blob\]\(blob:https:\/\/example.com\/1f2e\)/);
  assert.match(html, /!\[pic\]\(data:image\/webp;base64,UklGRg==\)/);
  const links = md(
    "[web](https://example.com/a) [plain](HTTP://example.com) [mail](mailto:a@b.c) [here](#item-3)",
  );
  assert.deepEqual([...links.matchAll(/href="([^"]*)"/g)].map((m) => m[1]), [
    "https://example.com/a",
    "HTTP://example.com",
    "mailto:a@b.c",
    "#item-3",
  ]);
});

Deno.test("markdownHtml() skips the parser for plain prose and gives what the parser gives", () => {
  assert.ok(isPlainProse("Just words.\nAnother line.\n\nA new paragraph."));
  assert.ok(isPlainProse("Run `deno test` first."));
  // A bare address is text (GitHub's bare-URL links are left out); `<https://…>` is a link.
  assert.ok(isPlainProse("See https://example.com or mail a@b.c."));
  assert.equal(
    md("Run `deno test` and `` a`b ``."),
    "<p>Run <code>deno test</code> and <code>a`b</code>.</p>",
  );
  assert.ok(!isPlainProse("```\ncode\n```"));
  for (
    const text of [
      "a *b*",
      "- item",
      "1. item",
      "  indented",
      "a\\b",
      "x\n\n\ny",
    ]
  ) {
    assert.ok(!isPlainProse(text), text);
  }
  const parser = (text: string): string => parsedHtml(text).toString();
  fc.assert(
    fc.property(
      fc.array(
        fc.constantFrom(
          "a",
          "B",
          " ",
          "\n",
          ".",
          ",",
          "'",
          '"',
          "é",
          "1",
          "-",
          ")",
          "?",
          "中",
          "`",
          "``",
        ),
        {
          maxLength: 40,
        },
      ).map((chars) => chars.join("")),
      (text) => {
        if (!isPlainProse(text)) return;
        assert.equal(md(text).replaceAll("&#39;", "'"), parser(text), JSON.stringify(text));
      },
    ),
    { numRuns: 5_000 },
  );
});

Deno.test("toolCallBody() shows an Edit as a unified diff of its old and new text", () => {
  const body = toolCallBody("Edit", {
    file_path: "/src/<a>.ts",
    old_string: "one\ntwo\nthree",
    new_string: "one\n2 <b>\nthree",
  }, settings)!;
  const html = body.html.toString();
  assert.match(html, /<p class="path">\/src\/&lt;a&gt;.ts<\/p>/);
  assert.match(html, /<span class="hunk">@@ -1,3 \+1,3 @@<\/span>/);
  assert.match(html, /<span class="ctx"> one<\/span>\n<span class="del">-two<\/span>\n/);
  assert.match(html, /<span class="add">\+2 &lt;b&gt;<\/span>/);
  assert.equal(body.cutBytes, 0);
});

Deno.test("toolCallBody() shows each edit of a MultiEdit, a Write's file, and keeps the budget", () => {
  const multi = toolCallBody("MultiEdit", {
    file_path: "f.txt",
    edits: [{ old_string: "a", new_string: "b" }, { old_string: "c", new_string: "d" }],
  }, settings)!.html.toString();
  assert.match(multi, /-a<\/span>\n<span class="add">\+b[\s\S]*-c<\/span>\n<span class="add">\+d/);
  const write = toolCallBody("Write", { file_path: "x.md", content: "# hi\n<script>" }, settings)!;
  assert.equal(
    write.html.toString(),
    '<div class="file"><p class="path">x.md</p><pre class="code"><code># hi\n&lt;script&gt;</code></pre></div>',
  );
  // Folded, a Write is named by its path, never by its input's JSON.
  assert.equal(write.preview, "x.md");
  const big = toolCallBody("Edit", {
    file_path: "big",
    old_string: "x\n".repeat(5_000),
    new_string: "y\n".repeat(5_000),
  }, { redact: false, itemBudget: 1_000 })!;
  assert.ok(big.cutBytes > 0);
  assert.ok(big.bytes <= 1_000, `${big.bytes}`);
  const secret = toolCallBody("Write", {
    file_path: "env",
    content: "KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
  }, settings)!;
  assert.match(secret.html.toString(), /\[REDACTED_SECRET\]/);
  // An edit whose lines all differ: given up on in bounded time, the old lines then the new.
  const lines = (n: number, c: string): string =>
    Array.from({ length: n }, (_, i) => `${c}${i % 7}`).join("\n");
  const started = performance.now();
  const whole = toolCallBody("Edit", {
    file_path: "f",
    old_string: lines(1_000, "a"),
    new_string: lines(1_000, "b"),
  }, settings)!.html.toString();
  assert.ok(performance.now() - started < 1_000);
  assert.match(whole, /too many changes to align/);
  assert.equal(whole.match(/class="del"/g)?.length, 1_000);
  assert.equal(toolCallBody("Edit", { file_path: "x" }, settings), undefined);
  // Read is shown by its path now (issue 27); a Bash call keeps its command line.
  assert.match(toolCallBody("Read", { file_path: "x" }, settings)!.html.toString(), /"path">x</);
  assert.equal(toolCallBody("Bash", { command: "ls" }, settings), undefined);
});

Deno.test("inputText() indents whole JSON, shows Bash as a command line, controls visible", () => {
  assert.equal(inputText("Read", '{"file_path":"a"}', true), '{\n  "file_path": "a"\n}');
  assert.equal(inputText("Read", '{"file_path":"a"', false), '{"file_path":"a"');
  assert.equal(
    inputText("Bash", '{"command":"ls\\u001b","description":"List"}', true),
    "$ ls\\x1b\n# List",
  );
  assert.equal(inputText("x", '{"a":"\\u202e"}', true), '{\n  "a": "\\u202e"\n}');
});

Deno.test("markdownHtml() skips the parser for prose around fenced code and gives what it gives", () => {
  const text =
    "Here:\n\n```ts\nconst a = 1 < 2 && `x`;\n\tindented\n```\nAfter `it`.\n\n```\nno lang\n```\n";
  assert.equal(md(text), parsedHtml(text).toString());
  assert.match(md(text), /<div class="fenced"><p class="lang">ts<\/p>/);
  // A closing fence may end in spaces or tabs (CommonMark), as the parser reads it.
  for (const fenced of ["```ts\n\n```\t\n```", "```\nx\n``` \t \nafter"]) {
    assert.equal(md(fenced), parsedHtml(fenced).toString());
  }
  fc.assert(
    fc.property(
      fc.array(
        fc.constantFrom(
          "a",
          " ",
          "\n",
          "\n\n",
          "`",
          "```",
          "````",
          "```ts",
          "``` js x",
          "<",
          "&",
          "\t",
          "   ```",
          "é",
          ".",
        ),
        { maxLength: 30 },
      ).map((chars) => chars.join("")),
      (text) => {
        assert.equal(
          md(text).replaceAll("&#39;", "'"),
          parsedHtml(text).toString(),
          JSON.stringify(text),
        );
      },
    ),
    { numRuns: 5_000 },
  );
});

Deno.test("markdownHtml() shows a text dense with emphasis or link marks as written, in bounded time", () => {
  for (const text of ["*a".repeat(4_000), "[".repeat(8_000), "~~a".repeat(2_600)]) {
    const started = performance.now();
    const html = md(text);
    assert.ok(performance.now() - started < 200, text.slice(0, 10));
    assert.ok(html.startsWith('<p class="as-written">'), text.slice(0, 10));
  }
  // Marks inside fenced code do not count: a long snake_case listing is still Markdown.
  const code = "Here:\n\n- one\n\n```py\n" + "a_b_c = d_e_f\n".repeat(300) + "```";
  assert.match(md(code), /<div class="fenced"><p class="lang">py<\/p>/);
});
