/**
 * Request bodies built to be expensive: as many fields as fit, long field names, one long
 * string, a long array, deep nesting, each at sizes from a sign-in form to about 1 MB. Used by
 * the hostile-input tests and `npm run bench:worst-body`.
 */
export interface HostileBody {
  label: string;
  payload: string;
}

const SIZES = [1024, 8 * 1024, 16 * 1024, 64 * 1024, 900 * 1024];

export function hostileBodies(): HostileBody[] {
  return SIZES.flatMap((size) => {
    const kb = `${Math.round(size / 1024)} KiB`;
    return [
      { label: `${kb}, as many fields as fit`, payload: manyFields(size) },
      { label: `${kb}, 60 long field names`, payload: longFieldNames(size, 60) },
      { label: `${kb}, one long string`, payload: JSON.stringify({ email: 'a'.repeat(size - 30), password: 'x' }) },
      {
        label: `${kb}, one long array`,
        payload: JSON.stringify({ email: Array.from({ length: Math.floor((size - 30) / 2) }, () => 1), password: 'x' }),
      },
      { label: `${kb}, nested 30 deep`, payload: nested(size, 30) },
    ];
  });
}

function manyFields(size: number): string {
  const parts: string[] = [];
  let length = 2;
  for (let i = 0; length < size - 20; i += 1) {
    const part = `"k${i}":1`;
    parts.push(part);
    length += part.length + 1;
  }
  return `{${parts.join(',')}}`;
}

function longFieldNames(size: number, count: number): string {
  const nameLength = Math.max(1, Math.floor(size / count) - 12);
  return JSON.stringify(
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`${i}`.padEnd(nameLength, 'x'), 1])),
  );
}

function nested(size: number, depth: number): string {
  const open = '{"a":'.repeat(depth);
  const close = '}'.repeat(depth);
  return `${open}"${'b'.repeat(Math.max(0, size - open.length - close.length - 2))}"${close}`;
}

/** Process CPU time (user + system) spent while `work` runs: unlike wall time, a busy neighbour does not inflate it. */
export async function cpuMsOf<T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = process.cpuUsage();
  const result = await work();
  const spent = process.cpuUsage(before);
  return { result, cpuMs: (spent.user + spent.system) / 1000 };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
