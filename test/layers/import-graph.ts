import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The project's import graph as the sources state it: every `import … from`, `export … from`,
 * side-effect `import '…'` and `import('…')` call of the .ts/.tsx/.mjs files under the given
 * folders, resolved to files (relative specifiers only: packages are not the project's). An edge is
 * `typeOnly` when it carries nothing at run time (`import type`, `export type`, every named binding
 * marked `type`, or a type position `import('…')`): the compilers drop those.
 */
export interface Edge { from: string; to: string; typeOnly: boolean }
/** A package (or node: builtin) a file imports, by its specifier. */
export interface PackageUse { from: string; spec: string; typeOnly: boolean }

const sourceExt = /\.(ts|tsx|mjs)$/;

function filesUnder(root: string, dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && sourceExt.test(e.name) && !e.name.endsWith('.d.ts') && !e.name.endsWith('.d.mts'))
    .map((e) => relative(root, join(e.parentPath ?? e.path, e.name)))
    .filter((f) => !/(^|\/)(node_modules|dist)\//.test(f));
}

/** `spec` imported by `from`, as a path relative to `root`, or null when it is a package. */
function resolveSpecifier(root: string, from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(root, dirname(from), spec);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')];
  const hit = candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? base;
  return relative(root, hit);
}

/** Whether an import clause brings in anything besides types. */
function clauseIsTypeOnly(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false; // `import './x'` runs x
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings) return false;
  if (ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function exportIsTypeOnly(decl: ts.ExportDeclaration): boolean {
  if (decl.isTypeOnly) return true;
  const clause = decl.exportClause;
  return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

export function edgesOf(root: string, file: string, packages: PackageUse[] = []): Edge[] {
  const text = readFileSync(join(root, file), 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const edges: Edge[] = [];
  const add = (spec: ts.Expression | undefined, typeOnly: boolean) => {
    if (!spec || !ts.isStringLiteralLike(spec)) return;
    const to = resolveSpecifier(root, file, spec.text);
    if (to) edges.push({ from: file, to, typeOnly });
    else packages.push({ from: file, spec: spec.text, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, clauseIsTypeOnly(node.importClause));
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, exportIsTypeOnly(node));
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

export function importGraph(root: string, folders: string[]): { files: string[]; edges: Edge[]; packages: PackageUse[] } {
  const files = folders.flatMap((d) => filesUnder(root, d));
  const packages: PackageUse[] = [];
  return { files, edges: files.flatMap((f) => edgesOf(root, f, packages)), packages };
}

/** The top-level area a file belongs to: `contract`, `client-sdk`, `board`, `server` … */
export const areaOf = (file: string) => file.split('/')[0];

/** Strongly connected components (Tarjan) of more than one file, over the given edges. */
export function circles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) found.push(part.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) connect(v);
  return found;
}
