/** A date as the reader's locale writes it, machine-readable too. */
export function When({ at }: { at: string }) {
  return <time dateTime={at}>{new Date(at).toLocaleString()}</time>;
}
