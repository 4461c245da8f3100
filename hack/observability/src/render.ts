/**
 * Draws evaluated dashboard panels as one HTML page: rows and panels placed by their gridPos on
 * Grafana's 24-column grid (30 px cells, 8 px gaps), time series as SVG lines with a legend below,
 * stat panels as their last value, values in the panel's unit. An approximation of Grafana's
 * default dark theme, drawn here: no Grafana code, styling, thresholds or variable pickers.
 */
import type { EvaluatedPanel, TimeRange } from "./panels.ts";
import { legendOf } from "./panels.ts";

const CELL_HEIGHT = 30;
const GAP = 8;
const TITLE_HEIGHT = 28;
// Grafana's classic palette, in its order.
const PALETTE = ["#73bf69", "#f2cc0c", "#8ab8ff", "#ff780a", "#f2495c", "#5794f2", "#b877d9", "#705da0", "#37872d"];

export interface PageOptions {
  title: string;
  /** Lines under the title: what the picture is and how it was made. */
  caption: string[];
  width: number;
  range: TimeRange;
}

interface Line {
  label: string;
  color: string;
  points: [number, number][];
}

const escapeText = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);

/** `value` with at most `decimals` decimals, trailing zeros dropped. */
function fixed(value: number, decimals: number): string {
  return Number(value.toFixed(Math.max(0, Math.min(decimals, 6)))).toString();
}

/** Decimals that tell apart values `step` apart (for axis ticks), or 2 significant-ish ones for a lone value. */
function decimalsFor(step: number): number {
  return step > 0 ? Math.max(0, -Math.floor(Math.log10(step) + 1e-9)) : 2;
}

function scaled(value: number, step: number, scales: [number, string][], suffix = ""): string {
  const magnitude = Math.abs(value) || Math.abs(step);
  const [factor, name] = scales.findLast(([f]) => magnitude >= f) ?? scales[0] ?? [1, ""];
  return `${fixed(value / factor, decimalsFor(step / factor))}${name}${suffix}`;
}

const SI: [number, string][] = [
  [1, ""],
  [1e3, " K"],
  [1e6, " M"],
  [1e9, " B"],
];
const BYTES: [number, string][] = [
  [1, " B"],
  [1e3, " kB"],
  [1e6, " MB"],
  [1e9, " GB"],
];

/** A value in a Grafana unit of the dashboard, `step` being the precision wanted (an axis's tick step). */
export function formatValue(value: number, unit: string | undefined, step = 0): string {
  if (!Number.isFinite(value)) return String(value);
  const precise = step || Math.abs(value) / 100;
  switch (unit) {
    case "s": {
      if (value === 0) return "0 s";
      const magnitude = Math.abs(value) || step;
      if (magnitude < 1e-3) return `${fixed(value * 1e6, decimalsFor(precise * 1e6))} µs`;
      if (magnitude < 1) return `${fixed(value * 1e3, decimalsFor(precise * 1e3))} ms`;
      if (magnitude < 60) return `${fixed(value, decimalsFor(precise))} s`;
      if (magnitude < 3600) return `${fixed(value / 60, decimalsFor(precise / 60))} min`;
      return `${fixed(value / 3600, decimalsFor(precise / 3600))} hour`;
    }
    case "percentunit":
      return `${fixed(value * 100, decimalsFor(precise * 100))}%`;
    case "reqps":
      return scaled(value, precise, SI, " req/s");
    case "ops":
      return scaled(value, precise, SI, " ops/s");
    case "Bps":
      return scaled(value, precise, BYTES, "/s");
    case "dtdurations": {
      const days = Math.floor(value / 86400);
      const hours = Math.floor((value % 86400) / 3600);
      return days > 0 ? `${days} days, ${hours} hours` : `${hours} hours, ${Math.floor((value % 3600) / 60)} minutes`;
    }
    default:
      return scaled(value, precise, SI);
  }
}

/** About `count` round ticks (1, 2 or 5 × 10^k apart) from at or below `min` to at or above `max`. */
export function ticks(min: number, max: number, count = 4): number[] {
  if (max <= min) max = min + 1;
  const rough = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
  const result: number[] = [];
  const last = Math.ceil(max / step - 1e-9) * step;
  for (let tick = Math.floor(min / step + 1e-9) * step; tick <= last + step * 1e-9; tick += step) {
    result.push(Number(tick.toPrecision(12)));
  }
  return result;
}

const clock = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(11, 19);

function linesOf(evaluated: EvaluatedPanel): Line[] {
  const lines: Line[] = [];
  for (const target of evaluated.targets) {
    for (const series of target.series) {
      lines.push({
        label: legendOf(target.legend, series.metric, target.expr),
        color: PALETTE[lines.length % PALETTE.length] ?? "#ccc",
        points: series.points,
      });
    }
  }
  return lines;
}

function timeseriesSvg(
  lines: Line[],
  unit: string | undefined,
  range: TimeRange,
  width: number,
  height: number,
): string {
  const values = lines.flatMap((line) => line.points.map(([, v]) => v)).filter(Number.isFinite);
  const top = Math.max(...values, 0);
  const bottom = Math.min(...values, 0);
  const yTicks = ticks(bottom, top === bottom ? bottom + 1 : top);
  const yMin = Math.min(bottom, yTicks[0] ?? 0);
  const yMax = Math.max(top, yTicks.at(-1) ?? 1);
  const step = yTicks.length > 1 ? (yTicks[1] ?? 0) - (yTicks[0] ?? 0) : 0;
  const left = Math.round(12 + Math.max(...yTicks.map((tick) => formatValue(tick, unit, step).length)) * 7);
  const right = width - 10;
  const plotTop = 6;
  const plotBottom = height - 20;
  const x = (time: number) => left + ((time - range.start) / (range.end - range.start)) * (right - left);
  const y = (value: number) => plotBottom - ((value - yMin) / (yMax - yMin || 1)) * (plotBottom - plotTop);
  const parts: string[] = [];
  for (const tick of yTicks) {
    parts.push(
      `<line x1="${left}" x2="${right}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}" class="grid"/>`,
      `<text x="${left - 6}" y="${(y(tick) + 4).toFixed(1)}" class="axis" text-anchor="end">${escapeText(formatValue(tick, unit, step))}</text>`,
    );
  }
  const span = range.end - range.start;
  const every = [5, 10, 15, 30, 60, 120, 300].find((s) => span / s <= 7) ?? 600;
  // A label too close to the right edge would be cut off.
  for (let time = Math.ceil(range.start / every) * every; x(time) <= right - 26; time += every) {
    parts.push(
      `<line x1="${x(time).toFixed(1)}" x2="${x(time).toFixed(1)}" y1="${plotTop}" y2="${plotBottom}" class="grid"/>`,
      `<text x="${x(time).toFixed(1)}" y="${height - 4}" class="axis" text-anchor="middle">${clock(time)}</text>`,
    );
  }
  for (const line of lines) {
    // A NaN (e.g. a quantile of a window without observations) is a gap, as in Grafana.
    let path = "";
    let pen = "M";
    for (const [time, value] of line.points) {
      if (!Number.isFinite(value)) {
        pen = "M";
        continue;
      }
      path += `${pen}${x(time).toFixed(1)},${y(value).toFixed(1)}`;
      pen = "L";
    }
    if (path) parts.push(`<path d="${path}" stroke="${line.color}" class="series"/>`);
  }
  return `<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join("")}</svg>`;
}

function lastValue(lines: Line[]): number | undefined {
  const points = lines[0]?.points.filter(([, v]) => Number.isFinite(v)) ?? [];
  return points.at(-1)?.[1];
}

function panelBody(evaluated: EvaluatedPanel, width: number, height: number, range: TimeRange): string {
  const { panel } = evaluated;
  const unit = panel.fieldConfig?.defaults?.unit;
  const errors = evaluated.targets.flatMap((target) => (target.error ? [target.error] : []));
  if (errors.length > 0) return `<div class="error">${errors.map(escape).join("<br>")}</div>`;
  const lines = linesOf(evaluated);
  if (lines.length === 0) return `<div class="nodata">No data</div>`;
  if (panel.type === "stat") {
    const value = lastValue(lines);
    return `<div class="stat">${value === undefined ? "No data" : escapeText(formatValue(value, unit))}</div>`;
  }
  const legendRows = Math.min(3, Math.ceil(lines.length / Math.max(1, Math.floor(width / 260))));
  const legendHeight = legendRows * 18 + 4;
  const legend = lines
    .map((line) => `<span class="item"><i style="background:${line.color}"></i>${escapeText(line.label)}</span>`)
    .join("");
  return `${timeseriesSvg(lines, unit, range, width, height - legendHeight)}<div class="legend" style="height:${legendHeight}px">${legend}</div>`;
}

/** The whole page: a header saying what it is, then every row and panel at its grid position. */
export function renderPage(panels: EvaluatedPanel[], options: PageOptions): string {
  const column = (options.width - GAP) / 24;
  const headerHeight = 28 + options.caption.length * 18 + 12;
  const parts: string[] = [];
  let bottom = 0;
  for (const evaluated of panels) {
    const { gridPos, type, title } = evaluated.panel;
    const left = GAP + gridPos.x * column;
    const top = headerHeight + gridPos.y * (CELL_HEIGHT + GAP);
    const width = gridPos.w * column - GAP;
    const height = gridPos.h * CELL_HEIGHT + (gridPos.h - 1) * GAP;
    bottom = Math.max(bottom, top + height);
    const box = `left:${left.toFixed(1)}px;top:${top}px;width:${width.toFixed(1)}px;height:${height}px`;
    if (type === "row") {
      parts.push(`<div class="row" style="${box}">⌄ ${escapeText(title)}</div>`);
      continue;
    }
    const bodyWidth = Math.floor(width - 16);
    const bodyHeight = height - TITLE_HEIGHT - 8;
    parts.push(
      `<div class="panel" style="${box}"><div class="title">${escapeText(title)}</div>` +
        `<div class="body" style="height:${bodyHeight}px">${panelBody(evaluated, bodyWidth, bodyHeight, options.range)}</div></div>`,
    );
  }
  const caption = options.caption.map((line) => `<div>${escapeText(line)}</div>`).join("");
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeText(options.title)}</title><style>
  body { margin: 0; background: #111217; color: #ccccdc; font: 12px/1.4 "DejaVu Sans", "Liberation Sans", sans-serif; }
  .page { position: relative; width: ${options.width}px; height: ${bottom + GAP}px; }
  header { position: absolute; left: ${GAP}px; top: 6px; right: ${GAP}px; }
  header h1 { font-size: 17px; font-weight: 500; margin: 0 0 2px; color: #e6e6f0; }
  header div { color: #9fa0b2; }
  .row { position: absolute; font-size: 15px; font-weight: 500; color: #e6e6f0; display: flex; align-items: center; }
  .panel { position: absolute; box-sizing: border-box; background: #181b1f; border: 1px solid #2a2d33; border-radius: 2px; overflow: hidden; }
  .title { height: ${TITLE_HEIGHT}px; line-height: ${TITLE_HEIGHT}px; padding: 0 8px; font-weight: 500; color: #e6e6f0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .body { padding: 0 8px; position: relative; }
  .grid { stroke: #2c3035; stroke-width: 1; }
  .axis { fill: #9fa0b2; font-size: 11px; }
  .series { fill: none; stroke-width: 1.5; stroke-linejoin: round; }
  .legend { display: flex; flex-wrap: wrap; align-content: flex-start; gap: 0 14px; overflow: hidden; }
  .legend .item { height: 18px; line-height: 18px; white-space: nowrap; }
  .legend i { display: inline-block; width: 14px; height: 4px; border-radius: 2px; margin: 0 5px 3px 0; vertical-align: middle; }
  .stat { height: 100%; display: flex; align-items: center; justify-content: center; font-size: 40px; font-weight: 500; color: #73bf69; }
  .nodata { height: 100%; display: flex; align-items: center; justify-content: center; color: #7b7c8c; font-size: 14px; }
  .error { color: #f2495c; padding: 8px 0; }
</style></head><body><div class="page"><header><h1>${escapeText(options.title)}</h1>${caption}</header>${parts.join("\n")}</div></body></html>
`;
}
