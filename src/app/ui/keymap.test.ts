import { describe, expect, it, vi } from 'vitest'
import { dispatchKey, helpGroups, KEYMAP, type KeyBinding, type KeyHandler, type KeyInput } from './keymap'

const key = (k: string, more: Partial<KeyInput> = {}): KeyInput => ({ key: k, target: null, ...more })
const handlers = (h: Record<string, KeyHandler>) => new Map(Object.entries(h))

describe('dispatchKey', () => {
  it('gives the key to the first binding in keymap order that has a handler', () => {
    const helpClose = vi.fn()
    const onEscape = vi.fn()
    expect(dispatchKey(key('Escape'), handlers({ 'help.close': helpClose, 'shell.escape': onEscape }))?.id).toBe(
      'help.close',
    )
    expect(helpClose).toHaveBeenCalledOnce()
    expect(onEscape).not.toHaveBeenCalled()
    expect(dispatchKey(key('Escape'), handlers({ 'shell.escape': onEscape }))?.id).toBe('shell.escape')
  })

  it('passes the key on when a handler returns false, and takes nothing without a handler', () => {
    const timeline = vi.fn(() => false)
    const presenter = vi.fn()
    expect(dispatchKey(key('Home'), handlers({ 'timeline.ends': timeline, 'presenter.ends': presenter }))?.id).toBe(
      'presenter.ends',
    )
    expect(timeline).toHaveBeenCalledOnce()
    expect(dispatchKey(key('Home'), handlers({}))).toBeNull()
  })

  it('leaves keys with a modifier and keys a control already handled', () => {
    const move = vi.fn()
    const h = handlers({ 'timeline.action': move })
    expect(dispatchKey(key('j', { ctrlKey: true }), h)).toBeNull()
    expect(dispatchKey(key('j', { altKey: true }), h)).toBeNull()
    expect(dispatchKey(key('ArrowDown', { defaultPrevented: true }), h)).toBeNull()
    expect(move).not.toHaveBeenCalled()
  })

  it('matches presenter Space by Shift: forward without it, back with it', () => {
    const next = vi.fn()
    const prev = vi.fn()
    const h = handlers({ 'presenter.next': next, 'presenter.prev': prev })
    expect(dispatchKey(key(' '), h)?.id).toBe('presenter.next')
    expect(dispatchKey(key(' ', { shiftKey: true }), h)?.id).toBe('presenter.prev')
  })

  it('reads a custom keymap, so a feature’s bindings are data too', () => {
    const map: KeyBinding[] = [{ id: 'x.go', group: 'Inspector', keys: 'g', help: 'go', match: (e) => e.key === 'g' }]
    expect(dispatchKey(key('g'), handlers({ 'x.go': () => undefined }), map)?.id).toBe('x.go')
  })
})

describe('helpGroups', () => {
  it('lists every binding of the keymap under its group, without the overlay’s own keys', () => {
    const groups = helpGroups()
    expect(groups.map((g) => g.group)).toEqual(['Inspector', 'Presenter mode'])
    const listed = groups.flatMap((g) => g.keys.map(([, what]) => what))
    const shown = KEYMAP.filter((b) => !['help.close', 'help.trap', 'timeline.leave-filter'].includes(b.id))
    expect(listed).toEqual(shown.map((b) => b.help))
    expect(listed).toContain('back to the inspector, at the same step')
  })
})
