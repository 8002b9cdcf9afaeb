// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { escapeHtml, Html, joinHtml, markup, trusted } from "./_html.ts";

Deno.test("markup`` escapes every interpolated text, in content and in attributes", () => {
  const hostile = `<script>alert("x")</script> & 'it'`;
  assert.equal(
    markup`<p title="${hostile}">${hostile}</p>`.toString(),
    `<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;it&#39;">` +
      `&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;it&#39;</p>`,
  );
  assert.equal(escapeHtml("plain"), "plain");
});

Deno.test("markup`` inserts built fragments as they are, nested to any depth", () => {
  const inner = markup`<b>${"a<b"}</b>`;
  const outer = markup`<p>${inner}${"&"}</p>`;
  assert.equal(outer.toString(), "<p><b>a&lt;b</b>&amp;</p>");
  assert.equal(markup`<div>${outer}</div>`.toString(), "<div><p><b>a&lt;b</b>&amp;</p></div>");
});

Deno.test("markup`` inserts arrays in order, each value escaped or kept as built", () => {
  const items = ["<1>", markup`<i>2</i>`, ["3", [markup`<br>`]]];
  assert.equal(markup`<li>${items}</li>`.toString(), "<li>&lt;1&gt;<i>2</i>3<br></li>");
  assert.equal(joinHtml(["<", markup`<hr>`]).toString(), "&lt;<hr>");
});

Deno.test("markup`` inserts numbers as text; null, undefined and false as nothing", () => {
  assert.equal(markup`${1}|${null}|${undefined}|${false}|${0}`.toString(), "1||||0");
});

Deno.test("a fragment is made only through this module: a string is never markup", () => {
  assert.throws(() => new Html(Symbol("html"), "<script>"), TypeError);
  // A string that looks like a fragment is still text.
  assert.equal(markup`${"<b>x</b>"}`.toString(), "&lt;b&gt;x&lt;/b&gt;");
  assert.equal(markup`${trusted("<b>x</b>")}`.toString(), "<b>x</b>");
  // Called as a function rather than a tag, it refuses.
  const call = markup as unknown as (s: string[], ...v: unknown[]) => Html;
  assert.throws(() => call(["<a>"]), TypeError);
});

Deno.test("the html renderer's files build markup only through markup``", async () => {
  for (const file of ["_page.ts", "html_index.ts", "html.ts"]) {
    const source = await Deno.readTextFile(new URL(file, import.meta.url));
    // An untagged template or a string literal that opens a tag is HTML built by hand (reading
    // a page back, with indexOf or a RegExp, is not).
    const untagged = source.split("\n").filter((line) =>
      /(?:^|[^\w`])`<[a-zA-Z!/]|["']<[a-zA-Z!/][^"']*>/.test(line) &&
      !/^\s*(?:\/\/|\/?\*)|indexOf\(|RegExp\(/.test(line)
    );
    assert.deepEqual(untagged, [], file);
  }
});
