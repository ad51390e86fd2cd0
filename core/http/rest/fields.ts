/** WordPress's `_fields=a,b.c`: keeps only the named (possibly nested) fields of each representation. */
export function applyFields(data: unknown, fields: string): unknown {
  const paths = fields
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
    .map((f) => f.split('.'));
  if (!paths.length) return data;
  const pick = (obj: unknown): unknown => {
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return obj;
    const out: Record<string, unknown> = {};
    for (const path of paths) copyPath(obj as Record<string, unknown>, out, path);
    return out;
  };
  return Array.isArray(data) ? data.map(pick) : pick(data);
}

function copyPath(from: Record<string, unknown>, to: Record<string, unknown>, path: string[]): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in from)) return;
  if (!rest.length) {
    to[head] = from[head];
    return;
  }
  const child = from[head];
  if (!child || typeof child !== 'object' || Array.isArray(child)) return;
  const target = (to[head] && typeof to[head] === 'object' ? to[head] : (to[head] = {})) as Record<string, unknown>;
  copyPath(child as Record<string, unknown>, target, rest);
}
