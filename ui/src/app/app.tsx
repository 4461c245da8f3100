/**
 * The app: the sign-in page without a session, otherwise the shell around the page the path
 * names. Only pages that exist are in the navigation.
 */
import { Fragment, type ReactNode, useEffect, useRef, useState } from "react";
import { api, readSession, type Session, saveSession, whenSessionEnds } from "./api.ts";
import { navigate, ROUTES, useLocation } from "./router.ts";
import { ServicesPage } from "./services.tsx";
import { SignInPage } from "./sign-in.tsx";

const PAGES: { path: string; label: string; render: () => ReactNode }[] = [
  { path: ROUTES.services, label: "Services", render: () => <ServicesPage /> },
];

export function App() {
  const { path, visit } = useLocation();
  const [session, setSession] = useState(readSession);
  const [notice, setNotice] = useState<string>();

  useEffect(() => {
    whenSessionEnds(() => {
      setSession(undefined);
      setNotice("Your session has ended: sign in again.");
    });
  }, []);

  // Without a session every path shows sign-in (and says so in the address bar); after it, the
  // page that was asked for. Redirects happen after rendering, never during it.
  const [returnTo, setReturnTo] = useState<string>();
  const signingIn = !session;
  const atEntry = path === "/" || path === ROUTES.signIn;
  useEffect(() => {
    if (signingIn && path !== ROUTES.signIn) {
      setReturnTo(path);
      navigate(ROUTES.signIn, true);
    } else if (!signingIn && atEntry) navigate(ROUTES.services, true);
  }, [signingIn, atEntry, path]);

  if (!session) {
    return (
      <SignInPage
        notice={notice}
        onSignedIn={(signedIn: Session) => {
          saveSession(signedIn);
          setSession(signedIn);
          setNotice(undefined);
          navigate(returnTo && returnTo !== "/" ? returnTo : ROUTES.services, true);
        }}
      />
    );
  }
  if (atEntry) return null;
  const page = PAGES.find((candidate) => candidate.path === path);
  return (
    <Shell
      session={session}
      current={page?.path}
      title={page?.label ?? "Page not found"}
      onSignOut={async () => {
        // The token is revoked server-side; the session ends here even if that call fails.
        await api.POST("/api/v1/logout").catch(() => undefined);
        saveSession(undefined);
        setSession(undefined);
        setNotice("You have signed out.");
      }}
    >
      <Fragment key={visit}>{page ? page.render() : <NotFound path={path} />}</Fragment>
    </Shell>
  );
}

function Shell(props: {
  session: Session;
  current: string | undefined;
  title: string;
  onSignOut: () => void;
  children: ReactNode;
}) {
  const main = useRef<HTMLElement>(null);
  // After a navigation the tab's title names the page, and focus moves to it, so keyboard and
  // screen-reader users land on it.
  useEffect(() => {
    document.title = `${props.title} · Atrium`;
    main.current?.focus();
  }, [props.title]);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="brand">Atrium</span>
        <nav aria-label="Main">
          <ul>
            {PAGES.map((page) => (
              <li key={page.path}>
                <a
                  href={page.path}
                  aria-current={page.path === props.current ? "page" : undefined}
                  onClick={(event) => {
                    event.preventDefault();
                    navigate(page.path);
                  }}
                >
                  {page.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span>
            {props.session.username} <span className="muted">in</span> {props.session.organization}
          </span>
          <button type="button" className="secondary" onClick={props.onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {props.children}
      </main>
    </div>
  );
}

function NotFound({ path }: { path: string }) {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{path}</code>.{" "}
        <a
          href={ROUTES.services}
          onClick={(event) => {
            event.preventDefault();
            navigate(ROUTES.services);
          }}
        >
          Go to Services
        </a>
      </p>
    </section>
  );
}
