/**
 * What an output filter costs per call (issue 22's target: at most 1.15× the CPU of the unfiltered
 * call on the same answer). Two measures (plan-setting-cost.ts): the filter's own work in this
 * process — retain of 5 pointers on a parsed 10 KB answer and the text written from what it kept,
 * as JSON and as TOON — and one gateway loaded with three plans over the 10 KB pet of backend.ts
 * (`GET /large/pets/{id}`): filtered to JSON, filtered to TOON, and unfiltered.
 *
 *   node bench/gateway/output-filter-cost.ts [--duration 10] [--rounds 5] [--connections 32] [--warmup 2] [--busy] [--quick]
 */
import { compileDocumentFilter } from "@atrium/gateway";
import { largePet } from "./large-pet.ts";
import { runSettingCost } from "./plan-setting-cost.ts";

const RETAIN = ["/id", "/name", "/status", "/category/name", "/owner/city"];

/** The filter's work for one call on a parsed answer: retain, then the text (JSON and TOON in turn). */
function filterWork(): () => void {
  const json = compileDocumentFilter({ retain: RETAIN, format: "json" });
  const toon = compileDocumentFilter({ retain: RETAIN, format: "toon" });
  const answer = largePet(7);
  let turn = 0;
  return () => {
    const filtered = (turn++ % 2 === 0 ? json : toon)(answer);
    if (filtered.structured.id !== 7) throw new Error("the filter lost the pet's id");
  };
}

await runSettingCost({
  role: "output-filter-cost",
  title: "Output filter cost (retain of 5 pointers on a 10 KB answer)",
  backendPath: "/large",
  variants: [
    { label: "filtered, JSON", plan: { toolOutputFilters: { getPet: { retain: RETAIN } } } },
    { label: "filtered, TOON", plan: { toolOutputFilters: { getPet: { retain: RETAIN, format: "toon" } } } },
    { label: "unfiltered", plan: {} },
  ],
  target: 1.15,
  workOfOneCall: filterWork,
  inProcessLabel: "the filter's own work (JSON and TOON in turn)",
});
