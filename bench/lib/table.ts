/** A plain text table: first column left-aligned, the others right-aligned; a rule of dashes under the head. */
export function table(head: string[], body: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return `${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${body.map(line).join('\n')}\n`;
}

/** A bench's progress lines, each stamped with the seconds since it began (`say`), and its closing "done in" line. */
export function progress() {
  const t0 = performance.now();
  const seconds = () => ((performance.now() - t0) / 1000).toFixed(0);
  return {
    say: (line: string) => void process.stdout.write(`  ${seconds().padStart(4)} s  ${line}\n`),
    done: () => void process.stdout.write(`done in ${seconds()} s\n`),
  };
}
