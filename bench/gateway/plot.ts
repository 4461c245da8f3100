/**
 * Cost-growth plots as SVG, drawn by Apache ECharts' server-side renderer (no DOM, no browser):
 * one SVG per dimension, a panel per figure, both axes logarithmic. Each measured line has a
 * dashed twin growing in proportion to the size from its smallest point, so a line that rises
 * above its twin grows worse than linearly, and one that stays under it grows at most linearly.
 */
import { LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, TitleComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";

echarts.use([LineChart, GridComponent, LegendComponent, TitleComponent, SVGRenderer]);

export interface GrowthSeries {
  name: string;
  /** [size, value] pairs; values ≤ 0 cannot sit on a logarithmic axis and are left out. */
  points: [number, number][];
}

export interface GrowthPanel {
  title: string;
  unit: string;
  series: GrowthSeries[];
}

const COLORS = ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df"];
const PANEL = { width: 380, height: 200, columns: 2, top: 70, gapX: 110, gapY: 110, left: 80 };

/** The SVG text of `panels` against one size axis named `sizeName`. */
export function growthSvg(options: {
  title: string;
  subtitle: string;
  sizeName: string;
  panels: GrowthPanel[];
}): string {
  const rows = Math.ceil(options.panels.length / PANEL.columns);
  const width = PANEL.left + PANEL.columns * (PANEL.width + PANEL.gapX);
  const height = PANEL.top + rows * (PANEL.height + PANEL.gapY);
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width, height });
  const at = (index: number) => ({
    left: PANEL.left + (index % PANEL.columns) * (PANEL.width + PANEL.gapX),
    top: PANEL.top + Math.floor(index / PANEL.columns) * (PANEL.height + PANEL.gapY) + 40,
  });
  const sizes = options.panels.flatMap((panel) => panel.series.flatMap((s) => s.points.map(([size]) => size)));
  const grid = options.panels.map((_, i) => ({ ...at(i), width: PANEL.width, height: PANEL.height }));
  const logAxis = (gridIndex: number, name: string) => ({
    gridIndex,
    type: "log" as const,
    name,
    nameLocation: "middle" as const,
    axisLabel: { fontSize: 10 },
  });
  const series = options.panels.flatMap((panel, gridIndex) =>
    panel.series.flatMap((measured, i) => {
      const points = measured.points.filter(([, value]) => value > 0);
      const [first] = points;
      const color = COLORS[i % COLORS.length];
      const common = { type: "line" as const, xAxisIndex: gridIndex, yAxisIndex: gridIndex, color };
      return [
        { ...common, name: measured.name, data: points, symbolSize: 6, lineStyle: { width: 2 } },
        ...(first
          ? [
              {
                ...common,
                name: `${measured.name}, linear`,
                data: points.map(([size]) => [size, (first[1] * size) / first[0]]),
                symbol: "none",
                lineStyle: { type: "dashed" as const, width: 1, opacity: 0.6 },
              },
            ]
          : []),
      ];
    }),
  );
  chart.setOption({
    animation: false,
    backgroundColor: "#ffffff",
    textStyle: { fontFamily: "sans-serif" },
    title: [
      { text: options.title, subtext: options.subtitle, left: PANEL.left - 40, top: 8 },
      ...options.panels.map((panel, i) => ({
        text: `${panel.title} (${panel.unit})`,
        textStyle: { fontSize: 13 },
        left: at(i).left - 40,
        top: at(i).top - 40,
      })),
    ],
    legend: options.panels.map((panel, i) => ({
      data: panel.series.map((s) => s.name),
      left: at(i).left,
      top: at(i).top - 20,
      textStyle: { fontSize: 10 },
      itemHeight: 8,
      // Server-side text widths are estimates: room to spare keeps the names apart.
      itemGap: 30,
    })),
    grid,
    xAxis: options.panels.map((_, i) => ({
      ...logAxis(i, options.sizeName),
      min: Math.min(...sizes),
      max: Math.max(...sizes),
      nameGap: 25,
    })),
    yAxis: options.panels.map((panel, i) => ({ ...logAxis(i, panel.unit), nameGap: 45 })),
    series,
  });
  const svg = chart.renderToSVGString();
  chart.dispose();
  return svg;
}
