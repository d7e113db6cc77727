/** A plain-text table with a header rule, every column padded to its widest cell (first column left, the rest right). */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => [...(row[column] ?? '')].length)));
  const pad = (cell: string, column: number) =>
    column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]);
  const line = (row: readonly string[]) => `| ${row.map((cell, column) => pad(cell, column)).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (column === 0 ? `${'-'.repeat(width + 1)}-` : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
