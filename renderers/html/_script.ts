// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The one script of every page: find and filter on a session page, the
// search of every session on the index. It is fixed text: the page's policy
// allows it by its SHA-256 hash, so nothing from a log may ever be written
// into it. It reads what the page holds (items' `textContent`, their
// `data-kind` and `data-thread`, the index's inert JSON block) and only
// toggles `hidden` and sets the text of its status line: it never writes
// markup, never evaluates a string, never loads anything. Without it the
// page shows everything and its controls stay hidden.

/** The script of every session and index page. */
export const PAGE_SCRIPT: string = `
"use strict";
(() => {
  const words = (text) => text.toLowerCase().split(/\\s+/).filter((word) => word !== "");
  const holds = (text, query) => query.every((word) => text.includes(word));
  const count = (n, one, many) => n + " " + (n === 1 ? one : many);
  const focusOn = (input) => {
    document.addEventListener("keydown", (event) => {
      const target = event.target;
      const typing = target instanceof HTMLInputElement || target instanceof HTMLSelectElement ||
        target instanceof HTMLTextAreaElement;
      if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        input.focus();
      } else if (event.key === "Escape" && target === input && input.value !== "") {
        input.value = "";
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
  };

  const bar = document.getElementById("find");
  if (bar !== null) {
    const items = [...document.querySelectorAll(".item[data-kind]")];
    const texts = new Map();
    const textOf = (item) => {
      let text = texts.get(item);
      if (text === undefined) {
        text = item.textContent.toLowerCase();
        texts.set(item, text);
      }
      return text;
    };
    const query = document.getElementById("find-q");
    const thread = document.getElementById("find-thread");
    const status = document.getElementById("find-status");
    const kinds = [...bar.querySelectorAll("input[data-show]")];
    const update = () => {
      const asked = words(query.value);
      const off = new Set(kinds.filter((box) => !box.checked).map((box) => box.dataset.show));
      const only = thread === null ? "" : thread.value;
      let shown = 0;
      for (const item of items) {
        const own = item.dataset.thread;
        const show = !off.has(item.dataset.kind) && !(own !== "0" && off.has("subagent")) &&
          (only === "" || own === only) && (asked.length === 0 || holds(textOf(item), asked));
        item.hidden = !show;
        // A request's token note follows the reply it is placed after.
        for (let next = item.nextElementSibling; next !== null && next.matches(".usage");
          next = next.nextElementSibling) {
          next.hidden = !show;
        }
        if (show) shown++;
      }
      const filtered = shown !== items.length;
      status.textContent = filtered
        ? "Showing " + shown + " of " + count(items.length, "item", "items")
        : count(items.length, "item", "items");
    };
    bar.addEventListener("input", update);
    bar.addEventListener("change", update);
    focusOn(query);
    update();
    bar.hidden = false;
  }

  const site = document.getElementById("site-find");
  const data = document.getElementById("site-words");
  if (site !== null && data !== null) {
    const known = new Map();
    try {
      const parsed = JSON.parse(data.textContent);
      for (const pair of Array.isArray(parsed && parsed.pages) ? parsed.pages : []) {
        if (Array.isArray(pair) && typeof pair[0] === "string" && typeof pair[1] === "string") {
          known.set(pair[0], pair[1]);
        }
      }
    } catch {
      known.clear();
    }
    const rows = [...document.querySelectorAll("main tbody tr")].map((row) => {
      const link = row.querySelector("a[href]");
      const extra = known.get(link === null ? "" : link.getAttribute("href")) || "";
      return { row, text: (row.textContent + " " + extra).toLowerCase() };
    });
    const sections = [...document.querySelectorAll("main section.project")];
    const query = document.getElementById("site-q");
    const status = document.getElementById("site-status");
    const update = () => {
      const asked = words(query.value);
      let shown = 0;
      for (const { row, text } of rows) {
        const show = asked.length === 0 || holds(text, asked);
        row.hidden = !show;
        if (show) shown++;
      }
      for (const section of sections) {
        section.hidden = section.querySelector("tbody tr:not([hidden])") === null;
      }
      status.textContent = asked.length === 0
        ? count(rows.length, "session", "sessions")
        : shown + " of " + count(rows.length, "session matches", "sessions match");
    };
    site.addEventListener("input", update);
    focusOn(query);
    update();
    site.hidden = false;
  }
})();
`;
