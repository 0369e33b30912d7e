/**
 * The Follow switch's word in a fetch address (`?node=…&inbox=…&follow=1`): a log read
 * from a node follows it by default, and the address (the permalink) says so, or says
 * `follow=0` once the user turned it off. Shared by the shell (which records it when it
 * opens a fetched log) and features/follow.
 */

/** Whether the address asks to follow: on unless it says `follow=0`. */
export function followWanted(search: string | undefined): boolean {
  return new URLSearchParams(search ?? '').get('follow') !== '0'
}

/** The fetch address with the switch recorded (`follow=1` or `follow=0`). */
export function withFollow(fetch: string, on: boolean): string {
  const q = new URLSearchParams(fetch)
  q.set('follow', on ? '1' : '0')
  return `?${q.toString()}`
}

/** Two fetch addresses of the same fetch, whatever their follow switch says. */
export function sameFetch(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  const strip = (s: string) => {
    const q = new URLSearchParams(s)
    q.delete('follow')
    return q.toString()
  }
  return strip(a) === strip(b)
}
