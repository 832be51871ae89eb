// The Vercel AI SDK as an agent (bench/clients/matrix.py): streamText with @ai-sdk/anthropic, a tool
// with an execute function (answers "ok"), stopWhen stepCountIs(4) so the SDK sends the results back
// itself; then one more user turn ("Thanks.") with the history. ANTHROPIC_BASE_URL (ending in /v1) is
// read by the provider.
import { anthropic } from "@ai-sdk/anthropic";
globalThis.AI_SDK_LOG_WARNINGS = false;
import { jsonSchema, stepCountIs, streamText, tool } from "ai";

const tools = {
  get_weather: tool({
    description: "get weather",
    inputSchema: jsonSchema({ type: "object", properties: { locations: { type: "array", items: { type: "string" } }, units: { type: "string" } } }),
    execute: async () => "ok",
  }),
};

async function turn(messages) {
  const result = streamText({
    model: anthropic("claude-sonnet-4-5"), messages, tools, maxOutputTokens: 1024, maxRetries: 0,
    stopWhen: stepCountIs(4),
  });
  for await (const part of result.fullStream) {
    if (part.type === "error") { console.error("Error:", String(part.error)); process.exit(1); }
  }
  return (await result.response).messages;
}

const messages = [{ role: "user", content: "Use the tools to answer, then say thanks." }];
messages.push(...await turn(messages));
messages.push({ role: "user", content: "Thanks." });
await turn(messages);
