// Draws bench/results/latest.json into the README's results table and bench/results/chart.svg.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const bench = dirname(fileURLToPath(import.meta.url));
const readme = join(bench, "..", "README.md");

export async function report() {
  const { markdown, chart } = await import(pathToFileURL(join(bench, "gen", "suite.node.mjs")).href);
  const result = JSON.parse(readFileSync(join(bench, "results", "latest.json"), "utf8"));
  const about = `${result.runtime}, ${result.machine.cpu} (${result.machine.cores} cores), ${result.date.slice(0, 10)}; ` +
    Object.entries(result.packages).map(([n, v]) => `${n} ${v}`).join(", ");
  writeFileSync(join(bench, "results", "chart.svg"), chart(result.rows, `Node: ${about.split(";")[0]}`) + "\n");
  const text = readFileSync(readme, "utf8");
  const start = "<!-- bench:node:start -->", end = "<!-- bench:node:end -->";
  const [a, b] = [text.indexOf(start), text.indexOf(end)];
  if (a < 0 || b < a) throw new Error(`README.md has no ${start} ... ${end} section`);
  const table = `${start}\n${about}. Time per operation (one message, one whole array, or the whole 10,000-message stream): the median of ${result.rows[0]?.runs_ns?.length ?? 1} runs' means; \`npm run bench\`.\n\n${markdown(result.rows)}\n`;
  writeFileSync(readme, text.slice(0, a) + table + text.slice(b));
  console.log("README.md table and bench/results/chart.svg updated");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await report();
