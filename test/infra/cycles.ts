/**
 * Import cycles, found by walking the relative imports of the source files (the same
 * scanner as the layers check) and collecting the strongly connected components of the
 * graph (Tarjan). Type-only imports count too: a cycle of types is still a knot a reader
 * has to untie. A cycle is reported as the path that closes it, e.g. `a.ts → b.ts → a.ts`.
 */
import { posix } from 'node:path'
import type { SourceFile } from './layers'
import { findImports } from './source-scan'

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.cjs', '/index.ts', '/index.tsx']

/** The file an import names, among `known` (extension-less and `.js` specifiers resolve to `.ts`/`.tsx`). */
function resolve(from: string, spec: string, known: ReadonlySet<string>): string | null {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return null
  const base = posix.normalize(posix.join(posix.dirname(from), spec))
  if (known.has(base)) return base
  const stem = base.replace(/\.(?:[cm]?js)$/, '')
  for (const ext of EXTENSIONS) if (known.has(stem + ext)) return stem + ext
  return null
}

export function importGraph(files: readonly SourceFile[]): Map<string, string[]> {
  const known = new Set(files.map((f) => f.path))
  const graph = new Map<string, string[]>()
  for (const f of files) {
    const to = new Set<string>()
    for (const ref of findImports(f.source)) {
      const t = resolve(f.path, ref.specifier, known)
      if (t !== null && t !== f.path) to.add(t)
    }
    graph.set(f.path, [...to].sort())
  }
  return graph
}

/** Every import cycle, one per strongly connected component: a closed path through it. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  // Iterative Tarjan: a deep import chain must not overflow the call stack.
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }]
    index.set(root, next)
    low.set(root, next++)
    stack.push(root)
    onStack.add(root)
    while (work.length > 0) {
      const top = work[work.length - 1]!
      const edges = graph.get(top.node) ?? []
      if (top.edge < edges.length) {
        const w = edges[top.edge++]!
        if (!index.has(w)) {
          index.set(w, next)
          low.set(w, next++)
          stack.push(w)
          onStack.add(w)
          work.push({ node: w, edge: 0 })
        } else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!))
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!))
      if (low.get(top.node) === index.get(top.node)) {
        const comp: string[] = []
        let w: string
        do {
          w = stack.pop()!
          onStack.delete(w)
          comp.push(w)
        } while (w !== top.node)
        if (comp.length > 1) components.push(comp.sort())
      }
    }
  }
  return components.map((comp) => closedPath(graph, comp))
}

/** A shortest path from the component's first file back to itself (breadth first, inside the component). */
function closedPath(graph: ReadonlyMap<string, readonly string[]>, comp: readonly string[]): string[] {
  const inside = new Set(comp)
  const start = comp[0]!
  const from = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const n = queue.shift()!
    for (const w of graph.get(n) ?? []) {
      if (!inside.has(w)) continue
      if (w === start) {
        const path = [start]
        for (let at: string | undefined = n; at !== undefined && at !== start; at = from.get(at)) path.splice(1, 0, at)
        return [...path, start]
      }
      if (!from.has(w)) {
        from.set(w, n)
        queue.push(w)
      }
    }
  }
  return [...comp, start]
}
