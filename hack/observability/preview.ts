/**
 * The closest thing to a screenshot of Atrium's Grafana dashboard that can be made without Grafana:
 * a real local stack under synthetic load, scraped by a real Prometheus 3.16, every query of
 * charts/observability/atrium-dashboard.json evaluated through its query_range API, drawn by
 * src/render.ts, and screenshotted by the repository's real Chromium.
 *
 * Run: node hack/observability/preview.ts --out docs/images/dashboard-preview.png
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { launchBrowser } from "@atrium/test-browser";
import { collectPreview, RATE_INTERVAL } from "./src/collect.ts";
import { toPalettePng } from "./src/png-palette.ts";
import { renderPage } from "./src/render.ts";

const HELP = `Usage: node hack/observability/preview.ts --out <file.png> [options]

Draws Atrium's Grafana dashboard from its own queries, without Grafana:
  1. starts a control plane (PGlite), the fixture pet-store backend and a gateway on 127.0.0.1;
  2. starts Prometheus 3.16 (hack/prometheus/build.sh prometheus; built into ~/.cache/atrium on
     first use, a few minutes) scraping both /q/metrics endpoints every second;
  3. drives tool calls for --seconds (answers, backend 404s, refused arguments, a window of
     timeouts, refused API keys, two Expositions created along the way, failed logins);
  4. evaluates every panel's queries with /api/v1/query_range ($__rate_interval = ${RATE_INTERVAL},
     $exposition = .*) and draws the panels at their gridPos;
  5. screenshots the page with Chromium (hack/browser) into --out, as a palette PNG (256 colours).

Options:
  --out <file.png>    the PNG to write (required)
  --html <file.html>  also keep the drawn page
  --seconds <n>       seconds of load (default 75)
  --width <px>        page width (default 1600)
  -h, --help          this text
`;

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    html: { type: "string" },
    seconds: { type: "string", default: "75" },
    width: { type: "string", default: "1600" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const seconds = Number(values.seconds);
const width = Number(values.width);
if (!values.out || !Number.isInteger(seconds) || seconds < 10 || !Number.isInteger(width) || width < 800) {
  process.stderr.write(
    `${values.out ? "--seconds must be an integer ≥ 10, --width ≥ 800\n" : "--out is required\n"}\n${HELP}`,
  );
  process.exit(2);
}

const started = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}`);
const collected = await collectPreview({ loadSeconds: seconds, log });
const failed = collected.panels.flatMap(({ panel, targets }) =>
  targets.flatMap((target) => (target.error ? [`${panel.title}: ${target.error}`] : [])),
);
for (const failure of failed) log(`query refused: ${failure}`);
const empty = collected.panels.filter(
  ({ panel, targets }) => panel.type !== "row" && targets.every((target) => target.series.length === 0),
);
log(`panels without data: ${empty.map(({ panel }) => panel.title).join(", ") || "none"}`);

const html = renderPage(collected.panels, {
  title: `${collected.dashboard.title}: a preview drawn from the dashboard's own queries (not Grafana)`,
  caption: [
    `Every query of charts/observability/atrium-dashboard.json evaluated by a real Prometheus 3.16 scraping a real local Atrium stack (control plane, gateway, fixture backend) every 1 s, ` +
      `under ${seconds} s of synthetic load; $__rate_interval = ${RATE_INTERVAL}, $exposition = All.`,
    "Drawn by hack/observability/preview.ts: layout from each panel's gridPos; no Grafana styling, thresholds or variable pickers. " +
      "No operator or webhook runs in this stack, so the Controllers row has no data.",
  ],
  width,
  range: collected.range,
});
if (values.html) writeFileSync(values.html, html);

log("browser: starting Chromium");
const browser = await launchBrowser({ log });
try {
  const page = await browser.newPage({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
  await page.setContent(html, { waitUntil: "load" });
  const png = toPalettePng(await page.screenshot({ fullPage: true }));
  writeFileSync(values.out, png);
  log(`wrote ${values.out} (${Math.round(png.length / 1024)} KiB, a palette PNG)`);
} finally {
  await browser.close();
}
if (failed.length > 0) process.exitCode = 1;
