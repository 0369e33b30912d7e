import { cleanup } from '@testing-library/react'
import { afterEach, beforeEach, vi } from 'vitest'

/**
 * happy-dom lays nothing out: gives every element a box of `height` x `width` before each
 * test, so a windowed table has rows in view; unmounts and restores after each.
 */
export function withLayoutBox(height: number, width = 900): void {
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(height)
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(width)
  })
  afterEach(() => {
    cleanup()
    vi.restoreAllMocks()
  })
}
