/** Labels as people type them: one `key=value` a line (or separated by commas). */

/** The labels of a text, or the first line that is not `key=value`. */
export function parseLabels(text: string): { labels: Record<string, string> } | { error: string } {
  const labels: Record<string, string> = {};
  for (const entry of text.split(/[\n,]/)) {
    const trimmed = entry.trim();
    if (trimmed === "") continue;
    const at = trimmed.indexOf("=");
    if (at <= 0) return { error: `"${trimmed}" is not key=value` };
    labels[trimmed.slice(0, at).trim()] = trimmed.slice(at + 1).trim();
  }
  return { labels };
}

/** `key=value` entries, for display. */
export function formatLabels(labels: Record<string, string> | null | undefined): string[] {
  return Object.entries(labels ?? {}).map(([key, value]) => `${key}=${value}`);
}
