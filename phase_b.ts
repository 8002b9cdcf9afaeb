console.error(JSON.stringify([performance.now()]));
if (Deno.args[0] === "never") {
  await import("./reader/mod.ts");
  await import("./cli/_terminal.ts");
  await import("./cli/_version.ts");
  await import("./cli/_example_data.ts");
  await import("./reader/_facts.ts");
  await import("./reader/_decode.ts");
}
