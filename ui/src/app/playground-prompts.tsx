/**
 * The playground's prompts: the endpoint's prompts (choose one), its arguments as a form, and the
 * messages prompts/get gave back.
 */
import { useState } from "react";
import type { Exchange, JsonSchema, McpClient, Prompt, PromptResult } from "./mcp-client.ts";
import { ChoicePanel, ExchangeFacts } from "./playground-exchange.tsx";
import { ArgumentsForm } from "./schema-form.tsx";

const PROMPT_WORDS = { subject: "prompt", submit: "Get the prompt", busy: "Getting…" };

/** A prompt's arguments (all strings) as the input schema the arguments form reads. */
function schemaOf(prompt: Prompt): JsonSchema {
  const list = prompt.arguments ?? [];
  return {
    type: "object",
    properties: Object.fromEntries(
      list.map((argument) => [argument.name, { type: "string", description: argument.description }]),
    ),
    required: list.filter((argument) => argument.required).map((argument) => argument.name),
  };
}

export function PromptsPanel(props: { client: McpClient; prompts: Prompt[] }) {
  const [chosen, setChosen] = useState<Prompt>();
  const [busy, setBusy] = useState(false);
  const [got, setGot] = useState<{ name: string; exchange: Exchange<PromptResult> }>();

  async function get(prompt: Prompt, args: Record<string, unknown>) {
    setBusy(true);
    setGot(undefined);
    const values = Object.fromEntries(Object.entries(args).map(([name, value]) => [name, String(value)]));
    const exchange = await props.client.getPrompt(prompt.name, values);
    setBusy(false);
    setGot({ name: prompt.name, exchange });
  }

  return (
    <ChoicePanel
      title="Prompts"
      heading="Prompt (choose one to get it)"
      empty="The endpoint lists no prompts."
      rows={props.prompts.map((prompt) => ({
        id: prompt.name,
        action: "Get",
        description: prompt.description ?? prompt.title,
        onChoose: () => {
          setChosen(prompt);
          setGot(undefined);
        },
      }))}
    >
      {chosen ? (
        <>
          <h4>
            Get <code>{chosen.name}</code>
          </h4>
          <ArgumentsForm
            key={chosen.name}
            schema={schemaOf(chosen)}
            busy={busy}
            words={PROMPT_WORDS}
            onCall={(args) => void get(chosen, args)}
          />
        </>
      ) : null}
      {got ? <MessagesView name={got.name} exchange={got.exchange} /> : null}
    </ChoicePanel>
  );
}

function MessagesView({ name, exchange }: { name: string; exchange: Exchange<PromptResult> }) {
  return (
    <section className={`result${exchange.result ? "" : " failed"}`} aria-label={`Messages of ${name}`}>
      <h4>Messages of {name}</h4>
      <ExchangeFacts exchange={exchange} what="Getting the prompt" />
      {exchange.result?.messages.map(({ role, content }, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a prompt's messages have no identity but their order
        <div key={index}>
          <p className="muted">{role}</p>
          <pre>
            {content.type === "text"
              ? content.text
              : content.type === "resource"
                ? `resource ${content.resource?.uri ?? ""}\n${content.resource?.text ?? ""}`
                : `${content.type}${content.mimeType ? ` (${content.mimeType})` : ""}`}
          </pre>
        </div>
      ))}
    </section>
  );
}
