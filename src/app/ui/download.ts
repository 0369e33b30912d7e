/** Saves `data` as a file named `name` (a Blob URL; nothing leaves the page). */
export function download(name: string, data: string | Uint8Array, type = 'application/octet-stream'): void {
  const blob = new Blob([data as BlobPart], { type })
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.style.display = 'none'
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
