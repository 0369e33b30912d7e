import { describe, expect, it } from 'vitest'
import { DEFAULT_EXAMPLE, DEMO, findExample, REAL_WORLD } from './gallery'
import { FIXTURE_EXAMPLES, FIXTURE_FILES } from './gallery-data'
import { EXAMPLES } from './gallery-list'

describe('the gallery', () => {
  it('opens the demo by its own entry, the one the index has', async () => {
    expect(DEFAULT_EXAMPLE).toBe(DEMO.name)
    expect(FIXTURE_EXAMPLES.get(DEMO.name)).toEqual(DEMO)
    expect(findExample(DEMO.name)).toBe(DEMO)
    expect(findExample(REAL_WORLD.name)).toBe(REAL_WORLD)
  })

  it('lists in the Open panel every example it opens, each opened as the index says', async () => {
    expect(EXAMPLES.map((e) => e.name).sort()).toEqual([...FIXTURE_EXAMPLES.keys(), REAL_WORLD.name].sort())
    for (const e of EXAMPLES) {
      const { name, verifier, file } = e
      expect(await findExample(name)).toEqual({ name, verifier, file })
      if (e !== EXAMPLES.at(-1)) expect(FIXTURE_FILES[file], file).toBeTypeOf('function')
      expect(e.description.length, name).toBeGreaterThan(0)
    }
    // Valid logs first, the demo leading; the real-world one last.
    expect(EXAMPLES[0]!.name).toBe(DEMO.name)
    expect(EXAMPLES.at(-1)!.name).toBe(REAL_WORLD.name)
    const verdicts = EXAMPLES.slice(0, -1).map((e) => e.ok)
    expect(verdicts).toEqual([...verdicts].sort((a, b) => Number(b) - Number(a)))
    expect(EXAMPLES.some((e) => e.verifier === 'fixture-fake')).toBe(true)
  })

  it('knows no example by an unknown name', async () => {
    expect(await findExample('no-such-log')).toBeUndefined()
  })
})
