// Copyright 2026 the brigade authors. MIT license.

// A Claude Code transcript whose responses are split over several records, for the html page's
// usage tests (as text in html_usage_test.ts, in a browser in html_browser_test.ts).

/**
 * A Claude Code transcript: a prompt; a response written as three records
 * (thinking, text, a Bash call), each repeating its message id and usage,
 * the output count growing; the call's result; a second response of one
 * record; a replay of the first response's text record (same id).
 */
export function splitUsageTranscript(): ReadableStream<Uint8Array> {
  const usage = {
    input_tokens: 12,
    cache_creation_input_tokens: 300,
    cache_read_input_tokens: 4000,
  };
  const reply = (uuid: string, id: string, block: unknown, output: number): unknown => ({
    type: "assistant",
    uuid,
    timestamp: "2026-03-01T10:00:01Z",
    message: {
      model: "claude-x",
      id,
      role: "assistant",
      content: [block],
      usage: id === "msg_1"
        ? { ...usage, output_tokens: output }
        : { input_tokens: 5, output_tokens: output, cache_read_input_tokens: 4500 },
    },
  });
  const records = [
    {
      type: "user",
      uuid: "u1",
      timestamp: "2026-03-01T10:00:00Z",
      message: { content: "Run it." },
    },
    reply("a1", "msg_1", { type: "thinking", thinking: "ok", signature: "s" }, 6),
    reply("a2", "msg_1", { type: "text", text: "Running." }, 6),
    reply("a3", "msg_1", {
      type: "tool_use",
      id: "toolu_1",
      name: "Bash",
      input: { command: "ls" },
    }, 58),
    {
      type: "user",
      uuid: "u2",
      timestamp: "2026-03-01T10:00:02Z",
      message: { content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "a.ts" }] },
    },
    reply("a4", "msg_2", { type: "text", text: "One file." }, 9),
    reply("a5", "msg_1", { type: "text", text: "Running." }, 58),
  ];
  const text = records.map((record) => JSON.stringify(record) + "\n").join("");
  return ReadableStream.from([new TextEncoder().encode(text)]);
}
