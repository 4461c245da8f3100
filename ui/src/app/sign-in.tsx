/** Sign-in: organization, user name and password → POST /api/v1/login; the problem's words on failure. */
import { type FormEvent, useEffect, useState } from "react";
import { api, attempt, describeFailure, type Session } from "./api.ts";
import { OutcomeView } from "./outcome.tsx";

export function SignInPage({ notice, onSignedIn }: { notice?: string; onSignedIn: (session: Session) => void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = "Sign in · Atrium";
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      organization: String(form.get("organization") ?? "").trim(),
      username: String(form.get("username") ?? "").trim(),
      password: String(form.get("password") ?? ""),
    };
    setBusy(true);
    setError(undefined);
    const { data, error: problem, response } = await attempt(() => api.POST("/api/v1/login", { body }));
    setBusy(false);
    if (!data) {
      setError(describeFailure(problem, response));
      return;
    }
    onSignedIn({
      token: data.token,
      expiresAt: data.expiresAt,
      organization: body.organization,
      username: body.username,
    });
  }

  return (
    <main className="sign-in" id="main">
      <form onSubmit={submit} aria-labelledby="sign-in-title" noValidate={false}>
        <h1 id="sign-in-title">Sign in to Atrium</h1>
        {notice && !error ? (
          <p className="notice" role="status">
            {notice}
          </p>
        ) : null}
        <OutcomeView outcome={{ failure: error }} />
        <label>
          Organization
          <input name="organization" defaultValue="default" autoComplete="organization" required />
        </label>
        <label>
          User name
          <input name="username" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
