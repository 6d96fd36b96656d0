/**
 * JSON built by a statement as text: the constant part is one template, spliced into the statement
 * once, and only the values that vary are computed per row. Why not `json_build_object`: it looks up
 * the type and output function of every argument, keys included, on every row. The clock
 * statements' deltas had about fifty arguments, and building them cost PostgreSQL as much as
 * writing the event did.
 *
 * A shape is plain JSON (the constant part) with leaves made by `sqlText`, `sqlNumber`, `sqlJson`,
 * and, after an array's fixed elements, `sqlSpread` / `sqlWhen` for elements that depend on the row.
 */

/** A SQL expression that yields a JSON value as text, never SQL NULL. */
class SqlValue {
  constructor(readonly expr: string) {}
}

/** A SQL expression that yields `,<element>` for each element, or '' for none. */
class SqlSpread {
  constructor(readonly expr: string) {}
}

export type JsonShape =
  | null | boolean | number | string
  | SqlValue
  | readonly (JsonShape | SqlSpread)[]
  | { readonly [key: string]: JsonShape };

/** A text expression as a JSON string; SQL NULL as `null`. */
export const sqlText = (expr: string) => new SqlValue(`coalesce(to_json(${expr})::text, 'null')`);

/** A json expression as it is; SQL NULL as `null`. */
export const sqlJson = (expr: string) => new SqlValue(`coalesce((${expr})::text, 'null')`);

/** A numeric or boolean expression as a JSON number or boolean: their text is already JSON. */
export const sqlNumber = sqlJson;

/**
 * An aggregate over the rows of the caller's query: `,<element>` per row in `order`, '' for none.
 * The text for `sqlSpread`, aggregated where the rows already are (a subquery of its own for the
 * spread costs a plan node set-up on every run).
 */
export const sqlElements = (element: JsonShape, order: string) =>
  `coalesce(string_agg(',' || ${concatenation(element)}, '' order by ${order}), '')`;

/** More elements of the array: an expression made by `sqlElements`. */
export const sqlSpread = (expr: string) => new SqlSpread(expr);

/** One more element of the array when `condition` holds. */
export const sqlWhen = (condition: string, element: JsonShape) =>
  new SqlSpread(`case when ${condition} then ',' || ${concatenation(element)} else '' end`);

type Part = { text: string } | { expr: string };

/** The shape as literal text and leaf expressions, in order. */
function parts(shape: JsonShape, out: Part[] = []): Part[] {
  const text = (s: string) => out.push({ text: s });
  if (shape instanceof SqlValue) out.push({ expr: shape.expr });
  else if (shape === null || typeof shape === 'boolean' || typeof shape === 'string') text(JSON.stringify(shape));
  else if (typeof shape === 'number') {
    if (!Number.isFinite(shape)) throw new Error(`not a JSON number: ${shape}`);
    text(JSON.stringify(shape));
  } else if (Array.isArray(shape)) {
    text('[');
    shape.forEach((item: JsonShape | SqlSpread, i: number) => {
      if (item instanceof SqlSpread) {
        // Its elements carry their own leading comma, so they need a fixed element before them.
        if (i === 0) throw new Error('sqlSpread/sqlWhen must follow a fixed element of the array');
        out.push({ expr: item.expr });
        return;
      }
      if (i > 0) text(',');
      parts(item, out);
    });
    text(']');
  } else {
    text('{');
    Object.entries(shape as Record<string, JsonShape>).forEach(([key, value], i) => {
      text(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`);
      parts(value, out);
    });
    text('}');
  }
  return out;
}

/** Adjacent literal parts joined. */
function merged(shape: JsonShape): Part[] {
  const out: Part[] = [];
  for (const p of parts(shape)) {
    const last = out[out.length - 1];
    if ('text' in p && last && 'text' in last) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}

const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** The shape as a `text` expression: literals and leaves joined with `||` (leaves are never NULL). */
function concatenation(shape: JsonShape): string {
  return merged(shape).map((p) => ('text' in p ? literal(p.text) : `(${p.expr})`)).join(' || ');
}

/**
 * The shape as a `json` expression: `format()` of one constant template, each distinct leaf
 * expression computed once however often it appears.
 */
export function jsonSql(shape: JsonShape): string {
  const args: string[] = [];
  let template = '';
  for (const p of merged(shape)) {
    if ('text' in p) {
      template += p.text.replaceAll('%', '%%');
      continue;
    }
    let n = args.indexOf(p.expr);
    if (n < 0) n = args.push(p.expr) - 1;
    template += `%${n + 1}$s`;
  }
  return args.length ? `format(${literal(template)}, ${args.join(', ')})::json` : `${literal(template)}::json`;
}
