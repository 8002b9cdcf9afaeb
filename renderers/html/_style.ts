// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The session page's stylesheet. It is fixed text: the page's policy allows
// it by its hash, so nothing from a log may ever be written into it. Thread
// colours are slots t0…t7 (t0 the primary thread); a thread is also named in
// words, so colour is never the only cue. System fonts only: no web font.

/** The stylesheet of every session and index page. */
export const PAGE_STYLE: string = `
:root {
  --bg: #f4f5f7; --card: #ffffff; --fg: #1f2328; --muted: #57606a; --line: #d0d7de;
  --code-bg: #f6f8fa; --user-bg: #eef4ff; --error: #cf222e; --error-bg: #fff0f0;
  --add-bg: #dafbe1; --del-bg: #ffebe9;
  --t0: #0969da; --t1: #8250df; --t2: #1a7f37; --t3: #bc4c00;
  --t4: #bf3989; --t5: #0a7c86; --t6: #6e7781; --t7: #9a6700;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --card: #161b22; --fg: #e6edf3; --muted: #9198a1; --line: #30363d;
    --code-bg: #10151c; --user-bg: #132339; --error: #ff7b72; --error-bg: #2d1416;
    --add-bg: #12361f; --del-bg: #3c1618;
    --t0: #4493f8; --t1: #ab7df8; --t2: #3fb950; --t3: #f0883e;
    --t4: #f778ba; --t5: #39c5cf; --t6: #9198a1; --t7: #d29922;
  }
}
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); }
body {
  margin: 0 auto; max-width: 58rem; padding: 1.5rem 1rem 3rem;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
}
code, pre, .seq, time {
  font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace;
}
.top { margin-bottom: 1.25rem; }
.kicker { margin: 0; color: var(--muted); font-size: .8rem; letter-spacing: .08em; text-transform: uppercase; }
.up { margin: 0 0 .5rem; font-size: .85rem; }
.up a::before { content: "\\2190\\00A0"; }
.projects { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; margin: 0; padding: 0; list-style: none; font-size: .85rem; }
.project h2 { margin: 1rem 0 .1rem; font-size: 1.05rem; overflow-wrap: anywhere; }
.where { margin: 0 0 .4rem; color: var(--muted); font-size: .8rem; overflow-wrap: anywhere; }
td.when, td.num { white-space: nowrap; }
td.prompt { overflow-wrap: anywhere; }
td.id { color: var(--muted); font-size: .75rem; overflow-wrap: anywhere; font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
h1 { margin: .15rem 0 .6rem; font-size: 1.35rem; font-weight: 600; overflow-wrap: anywhere; }
.facts { display: flex; flex-wrap: wrap; gap: .5rem 1.75rem; margin: 0 0 .75rem; }
.facts div { display: flex; flex-direction: column; }
.facts dt { color: var(--muted); font-size: .75rem; text-transform: uppercase; letter-spacing: .05em; }
.facts dd { margin: 0; font-weight: 600; }
.threads { display: flex; flex-wrap: wrap; gap: .4rem; margin: 0; padding: 0; list-style: none; }
.threads li {
  display: inline-flex; align-items: center; gap: .4rem; padding: .1rem .6rem;
  border: 1px solid var(--line); border-radius: 999px; background: var(--card); font-size: .85rem;
}
.swatch { width: .7rem; height: .7rem; border-radius: 50%; background: var(--c); }
main { display: flex; flex-direction: column; gap: .6rem; }
.item {
  --c: var(--t0);
  background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--c);
  border-radius: 6px; padding: .55rem .85rem; min-width: 0;
}
.t0 { --c: var(--t0); } .t1 { --c: var(--t1); } .t2 { --c: var(--t2); } .t3 { --c: var(--t3); }
.t4 { --c: var(--t4); } .t5 { --c: var(--t5); } .t6 { --c: var(--t6); } .t7 { --c: var(--t7); }
.head, summary {
  display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem .6rem;
  margin: 0; font-size: .85rem; font-weight: 600;
}
.who { color: var(--fg); }
.meta { margin-left: auto; display: inline-flex; gap: .6rem; color: var(--muted); font-weight: 400; font-size: .8rem; }
.thread { display: inline-flex; align-items: center; gap: .3rem; }
.thread::before { content: ""; width: .55rem; height: .55rem; border-radius: 50%; background: var(--c); }
.text { margin-top: .35rem; overflow-wrap: anywhere; }
.text.plain, .as-written { white-space: pre-wrap; }
.text > :first-child { margin-top: 0; }
.text > :last-child { margin-bottom: 0; }
.text p, .text ul, .text ol, .text blockquote, .text table, .fenced, .diff, .file { margin: .45rem 0; }
.text h3, .text h4, .text h5, .text h6 { margin: .7rem 0 .35rem; font-size: 1rem; }
.text blockquote { padding-left: .75rem; border-left: 3px solid var(--line); color: var(--muted); }
.text code { padding: .05rem .25rem; border-radius: 3px; background: var(--code-bg); font-size: .88em; }
.text pre.code {
  margin: 0; padding: .5rem .65rem; overflow-x: auto; white-space: pre-wrap;
  background: var(--code-bg); border: 1px solid var(--line); border-radius: 4px;
  font-size: .82rem; line-height: 1.45;
}
.text pre.code code { padding: 0; background: none; font-size: inherit; }
.lang, .path {
  margin: 0; padding: .15rem .65rem; border: 1px solid var(--line); border-bottom: 0;
  border-radius: 4px 4px 0 0; background: var(--card); color: var(--muted); font-size: .75rem;
  font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace;
}
.text .lang, .text .path { margin: 0; }
.lang + pre.code, .path + pre.code { border-radius: 0 0 4px 4px; }
.text li:has(> .task) { list-style: none; margin-left: -1.1rem; }
.diff .add, .diff .del, .diff .ctx, .diff .hunk { display: inline-block; width: 100%; }
.diff .add { background: var(--add-bg); }
.diff .del { background: var(--del-bg); }
.diff .hunk { color: var(--muted); }
.text table { width: auto; font-size: .9rem; }
.align-left { text-align: left; } .align-right { text-align: right; } .align-center { text-align: center; }
.task { font-size: 1.05em; }
.image { color: var(--muted); }
.size { color: var(--muted); font-weight: 400; font-size: .8rem; }
a.seq { color: var(--muted); text-decoration: none; }
a.seq:hover, a.seq:focus { text-decoration: underline; }
.from-user { background: var(--user-bg); }
.k-thread_message { border-style: dashed; border-left-style: solid; }
.k-system { color: var(--muted); font-style: italic; }
.k-thinking { border-left-style: dotted; }
.k-thinking .text { color: var(--muted); }
details.item { padding: .4rem .85rem; }
summary { cursor: pointer; font-weight: 500; }
summary::-webkit-details-marker { display: none; }
summary::before { content: "\\25B8"; color: var(--muted); width: .8rem; }
details[open] > summary::before { content: "\\25BE"; }
summary .who { font-weight: 600; }
.preview {
  flex: 1 1 12rem; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
  color: var(--muted); font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: .8rem;
}
details[open] .preview { visibility: hidden; }
.is-error { border-left-color: var(--error); background: var(--error-bg); }
.badge {
  padding: 0 .45rem; border-radius: 4px; background: var(--error); color: #ffffff;
  font-size: .72rem; font-weight: 700; text-transform: uppercase; letter-spacing: .04em;
}
@media (prefers-color-scheme: dark) { .badge { color: #0d1117; } }
.usage {
  margin: -.4rem .25rem 0 auto; color: var(--muted); font-size: .75rem;
  font-variant-numeric: tabular-nums; text-align: right;
}
.usage .model, .threads .model { color: var(--muted); font-weight: 400; }
.usage data { font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
.note { margin: .4rem 0 0; color: var(--muted); font-size: .8rem; font-style: italic; }
.transcript-cut { padding: .6rem .85rem; border: 1px dashed var(--line); border-radius: 6px; }
footer { margin-top: 2rem; color: var(--muted); font-size: .8rem; text-align: center; }
table { width: 100%; border-collapse: collapse; background: var(--card); border: 1px solid var(--line); }
th, td { padding: .45rem .7rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
/* A header cell is a word or two: it never breaks inside one (an item's text breaks anywhere). */
th {
  color: var(--muted); font-size: .75rem; text-transform: uppercase; letter-spacing: .05em;
  overflow-wrap: normal; word-break: normal; hyphens: manual;
}
td.num { text-align: right; font-variant-numeric: tabular-nums; }
a { color: var(--t0); }
/* tool bodies and subagent folds (issue 27) */
.todos { margin: .35rem 0; padding: 0; list-style: none; }
.todo { display: flex; gap: .45rem; align-items: baseline; }
.todo .mark { font-size: 1.05em; width: 1.1rem; }
.todo .state { color: var(--muted); font-size: .8rem; }
.s-completed .todo-text { text-decoration: line-through; color: var(--muted); }
.s-in-progress .todo-text { font-weight: 600; }
.task-call .prose, .plan .prose { padding: .35rem .65rem; border: 1px solid var(--line); border-radius: 0 0 4px 4px; }
.tool-call .path + pre.code { border-radius: 0 0 4px 4px; }
.tool-call > .path:only-child { border-bottom: 1px solid var(--line); border-radius: 4px; }
.pattern { font-weight: 600; }
pre.numbered .ln { color: var(--muted); user-select: none; }
.diff .diff-cut { display: inline-block; width: 100%; color: var(--muted); font-style: italic; }
details.subagent { margin: -.2rem 0 0 1.25rem; border-left: 3px solid var(--c); padding-left: .6rem; }
details.subagent > summary { padding: .3rem 0; }
details.subagent > summary .agent-name { font-weight: 600; }
.subagent-items { display: flex; flex-direction: column; gap: .6rem; padding: .3rem 0 .2rem; }
/* The fold names its subagent: its items need not repeat it beside their time. */
.subagent-items > .item .meta .thread { display: none; }
[hidden] { display: none !important; }
.toc { margin: 0 0 1rem; font-size: .85rem; }
.toc h2 { margin: 0 0 .3rem; color: var(--muted); font-size: .75rem; letter-spacing: .05em; text-transform: uppercase; }
.toc ol {
  max-height: 11rem; overflow-y: auto; margin: 0; padding: .35rem .85rem .35rem 2.6rem;
  background: var(--card); border: 1px solid var(--line); border-radius: 6px;
}
.toc li { overflow-wrap: anywhere; }
.toc li::marker { color: var(--muted); font-variant-numeric: tabular-nums; }
.find {
  position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; align-items: center;
  gap: .35rem .8rem; margin: 0 0 .8rem; padding: .5rem .1rem; background: var(--bg);
  border-bottom: 1px solid var(--line); font-size: .85rem;
}
.find-q { font-weight: 600; }
.find input[type="search"] {
  flex: 1 1 14rem; min-width: 0; max-width: 26rem; padding: .3rem .5rem; font: inherit; color: var(--fg);
  background: var(--card); border: 1px solid var(--muted); border-radius: 4px;
}
.find select { font: inherit; color: var(--fg); background: var(--card); border: 1px solid var(--muted); border-radius: 4px; }
.kinds { display: flex; flex-wrap: wrap; gap: .2rem .7rem; margin: 0; padding: 0; border: 0; }
.kinds legend { float: left; margin-right: .4rem; padding: 0; color: var(--muted); }
.kinds label, .find-thread { white-space: nowrap; }
.find-status { margin: 0 0 0 auto; color: var(--muted); font-variant-numeric: tabular-nums; }
`;
