/**
 * A Node built-in module (node:fs, node:crypto) for the fast backend's Node paths, without a
 * static import: the core's and the app's bundles must not see one, and the core's types
 * have no Node library.
 *
 * `process.getBuiltinModule` (Node ≥ 20.16) first: it is synchronous and needs no module
 * loader, so it also works in code that Node runs as a classic script (the command line's
 * bundle is compiled through `vm.Script` with a code cache: scripts/cli-loader.cjs), where
 * a dynamic `import()` has no loader to call. A computed-specifier `import()` otherwise.
 */
interface NodeProcess {
  getBuiltinModule?(id: string): unknown
}

export async function nodeBuiltin<T>(id: `node:${string}`): Promise<T> {
  const host = (globalThis as { process?: NodeProcess }).process
  if (typeof host?.getBuiltinModule === 'function') {
    const m = host.getBuiltinModule(id)
    if (m) return m as T
  }
  return (await import(/* @vite-ignore */ id)) as T
}
