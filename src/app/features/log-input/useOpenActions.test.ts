import { describe, expect, it } from 'vitest'
import { fileSource, MAX_FILE } from './useOpenActions'

const fileOf = (name: string, size: number, read: () => Promise<ArrayBuffer>) => ({ name, size, arrayBuffer: read })

describe('fileSource', () => {
  it('reads a file into a file source with its bytes', async () => {
    const s = await fileSource(fileOf('log.pb', 3, async () => new Uint8Array([1, 2, 3]).buffer))
    expect(s).toEqual({
      kind: 'file',
      label: 'file log.pb',
      name: 'log.pb',
      input: new Uint8Array([1, 2, 3]),
      verifier: 'none',
    })
  })

  it('refuses a file over the limit without reading it', async () => {
    let read = false
    const s = await fileSource(
      fileOf('big.json', MAX_FILE + 1, async () => {
        read = true
        return new ArrayBuffer(0)
      }),
    )
    expect(read).toBe(false)
    expect(s).toEqual({
      label: 'file big.json',
      message: `big.json is ${MAX_FILE + 1} bytes; the inspector opens files up to ${MAX_FILE} bytes`,
    })
  })

  it('says why a file could not be read', async () => {
    const s = await fileSource(
      fileOf('gone.json', 10, async () => {
        throw new Error('NotReadableError: the file changed on disk')
      }),
    )
    expect(s).toEqual({
      label: 'file gone.json',
      message: 'gone.json could not be read: NotReadableError: the file changed on disk',
    })
  })
})
