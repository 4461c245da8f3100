/**
 * The app: the sign-in page without a session, otherwise the shell around the page the path
 * names. Only pages that exist are in the navigation.
 */
import { Fragment, type ReactNode, useEffect, useRef, useState } from "react";
import { api, readSession, type Session, saveSession, whenSessionEnds } from "./api.ts";
import { ApiTokensPage } from "./api-tokens.tsx";
import { CustomDefinitionsPage, KINDS } from "./custom-definitions.tsx";
import { ExpositionPage } from "./exposition-detail.tsx";
import { EXPOSITIONS, ExpositionsPage } from "./expositions.tsx";
import { GatewaysPage } from "./gateways.tsx";
import { Link } from "./link.tsx";
import { NewPlanPage, PlanPage } from "./plan-page.tsx";
import { PlansPage } from "./plans.tsx";
import { navigate, ROUTES, useLocation } from "./router.ts";
import { SecretsPage } from "./secrets.tsx";
import { ServiceDetailPage } from "./service-detail.tsx";
import { ServicesPage } from "./services.tsx";
import { SignInPage } from "./sign-in.tsx";

/** The navigation: only pages that exist. */
const NAVIGATION = [
  { path: ROUTES.services, label: "Services" },
  { path: ROUTES.plans, label: "Plans" },
  { path: EXPOSITIONS, label: "Expositions" },
  { path: "/gateways", label: "Gateways" },
  { path: KINDS.tools.path, label: "Custom" },
  { path: "/api-tokens", label: "API tokens" },
  { path: "/secrets", label: "Secrets" },
];

/** Pages without a parameter: the path, its navigation entry, its title. */
const ADMIN_PAGES: Record<string, { section: string; title: string; content: () => ReactNode }> = {
  "/gateways": { section: "/gateways", title: "Gateways", content: () => <GatewaysPage /> },
  "/api-tokens": { section: "/api-tokens", title: "API tokens", content: () => <ApiTokensPage /> },
  "/secrets": { section: "/secrets", title: "Secrets", content: () => <SecretsPage /> },
  ...Object.fromEntries(
    Object.values(KINDS).map((kind) => [
      kind.path,
      { section: KINDS.tools.path, title: kind.title, content: () => <CustomDefinitionsPage kind={kind} /> },
    ]),
  ),
};

/** What a path shows: its navigation entry, the tab's title and the page. */
function pageFor(path: string): { section: string | undefined; title: string; content: ReactNode } {
  if (path === ROUTES.services) return { section: ROUTES.services, title: "Services", content: <ServicesPage /> };
  const admin = Object.hasOwn(ADMIN_PAGES, path) ? ADMIN_PAGES[path] : undefined;
  if (admin) return { section: admin.section, title: admin.title, content: admin.content() };
  if (path === ROUTES.plans) return { section: ROUTES.plans, title: "Configuration plans", content: <PlansPage /> };
  if (path === `${ROUTES.plans}/new`) return { section: ROUTES.plans, title: "New plan", content: <NewPlanPage /> };
  const plan = /^\/plans\/([^/]+)$/.exec(path)?.[1];
  if (plan !== undefined) {
    return {
      section: ROUTES.plans,
      title: "Configuration plan",
      content: <PlanPage id={decodeURIComponentSafely(plan)} />,
    };
  }
  if (path === EXPOSITIONS) return { section: EXPOSITIONS, title: "Expositions", content: <ExpositionsPage /> };
  const exposition = /^\/expositions\/([^/]+)$/.exec(path)?.[1];
  if (exposition !== undefined) {
    return {
      section: EXPOSITIONS,
      title: "Exposition",
      content: <ExpositionPage id={decodeURIComponentSafely(exposition)} />,
    };
  }
  const service = /^\/services\/([^/]+)$/.exec(path)?.[1];
  if (service !== undefined) {
    return {
      section: ROUTES.services,
      title: "Service",
      content: <ServiceDetailPage id={decodeURIComponentSafely(service)} />,
    };
  }
  return { section: undefined, title: "Page not found", content: <NotFound path={path} /> };
}

function decodeURIComponentSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

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
  const page = pageFor(path);
  return (
    <Shell
      session={session}
      current={page.section}
      title={page.title}
      onSignOut={async () => {
        // The token is revoked server-side; the session ends here even if that call fails.
        await api.POST("/api/v1/logout").catch(() => undefined);
        saveSession(undefined);
        setSession(undefined);
        setNotice("You have signed out.");
      }}
    >
      <Fragment key={visit}>{page.content}</Fragment>
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
            {NAVIGATION.map((entry) => (
              <li key={entry.path}>
                <Link href={entry.path} aria-current={entry.path === props.current ? "page" : undefined}>
                  {entry.label}
                </Link>
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
        There is no page at <code>{path}</code>. <Link href={ROUTES.services}>Go to Services</Link>
      </p>
    </section>
  );
}
