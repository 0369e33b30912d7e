/**
 * The app's URL as `npm start` prints and opens it: on `localhost`, never an IP address.
 * WebAuthn refuses IP origins ("127.0.0.1 is an invalid domain"), so a passkey can be
 * created only on http://localhost:PORT; the server itself still binds 127.0.0.1.
 */

/** `http://127.0.0.1:5173/` (or `[::1]`) → `http://localhost:5173/`; other URLs unchanged. */
export function appUrl(url) {
  const u = new URL(url)
  if (u.hostname === '127.0.0.1' || u.hostname === '[::1]' || u.hostname === '::1') u.hostname = 'localhost'
  return u.href
}

/** The arguments for Vite on `port`: bound to 127.0.0.1, and (when `open`) opened on localhost. */
export function viteArgs(port, open) {
  return [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--strictPort',
    ...(open ? ['--open', appUrl(`http://127.0.0.1:${port}/`)] : []),
  ]
}
