// The Vercel AI SDK's Anthropic provider as its docs show it: no baseURL in code, so
// @ai-sdk/anthropic reads ANTHROPIC_BASE_URL (and expects it to end in /v1).
import { anthropic } from "@ai-sdk/anthropic";
globalThis.AI_SDK_LOG_WARNINGS = false;
import { jsonSchema, streamText, tool } from "ai";

const result = streamText({
  model: anthropic("claude-x"),
  prompt: "weather?",
  maxOutputTokens: 64,
  maxRetries: 0,
  tools: {
    get_weather: tool({
      description: "weather in a place",
      inputSchema: jsonSchema({ type: "object", properties: { location: { type: "string" } } }),
    }),
  },
});
for await (const part of result.fullStream) {
  if (part.type === "tool-call") console.log("tool-call", part.toolName, JSON.stringify(part.input));
  if (part.type === "error") { console.error("error", String(part.error)); process.exit(1); }
}
console.log("finish", await result.finishReason);
