/** prompts/get's filling of `{{argument}}` placeholders, and its bound on what arguments make of a prompt. */
import type { CompiledExposition } from "@atrium/contract";
import { describe, expect, it } from "vitest";
import { getPrompt, MAX_FILLED_PROMPT_CHARS } from "./prompts.ts";
import { invalidParamsMessage } from "./testing.ts";

type Prompt = CompiledExposition["prompts"][number];

const echo = (text: string): Prompt => ({
  name: "echo",
  arguments: [{ name: "word", required: true }],
  messages: [{ role: "user", text }],
});

describe("getPrompt", () => {
  it("fills each placeholder with its argument", () => {
    const filled = getPrompt(
      [echo("Say {{word}}, then {{ word }} again.")],
      { name: "echo", arguments: { word: "hi" } },
      400,
    );
    expect(filled.messages).toEqual([{ role: "user", content: { type: "text", text: "Say hi, then hi again." } }]);
  });

  it("refuses arguments that would make the prompt longer than its bound, before building it", () => {
    const prompt = echo("{{word}}".repeat(10_000));
    const word = "x".repeat(100_000); // 10,000 copies: a gigabyte of text
    const message = invalidParamsMessage(() => getPrompt([prompt], { name: "echo", arguments: { word } }, 400));
    expect(message).toBe(
      `The arguments make prompt echo longer than ${MAX_FILLED_PROMPT_CHARS} characters: give shorter ones`,
    );
    // Just under the bound still fills.
    const fits = "y".repeat(Math.floor(MAX_FILLED_PROMPT_CHARS / 10_000) - 1);
    const filled = getPrompt([prompt], { name: "echo", arguments: { word: fits } }, 400);
    const content = filled.messages[0]?.content as { text: string } | undefined;
    expect(content?.text.length).toBe(fits.length * 10_000);
  });
});
