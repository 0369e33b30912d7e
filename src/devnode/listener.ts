/**
 * One port for HTTP/1.1 and cleartext HTTP/2 (h2c with prior knowledge, which gRPC
 * clients use for http:// URLs). Node 20's `http2.createServer({ allowHTTP1: true })`
 * falls back to HTTP/1 only for TLS (ALPN); on cleartext it answers an HTTP/1.1 request
 * with an HTTP/2 SETTINGS frame. So a plain TCP server reads the first bytes of each
 * connection: the HTTP/2 connection preface (`PRI * HTTP/2.0`) goes to an http2 server,
 * anything else to the node:http server, both with the same request handler.
 */
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createHttp2Server, type Http2Server, type ServerHttp2Session } from 'node:http2'
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net'
import type { NodeHandler } from './rpc'

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1')

export class NodeListener {
  /** HTTP/1.1 requests. */
  readonly http1: Server
  /** Cleartext HTTP/2 (gRPC). */
  readonly http2: Http2Server
  private readonly front: NetServer
  private readonly sessions = new Set<ServerHttp2Session>()
  private readonly sockets = new Set<Socket>()
  private readonly unrouted = new Set<Socket>()

  constructor(handler: NodeHandler) {
    this.http1 = createHttpServer(handler)
    this.http2 = createHttp2Server({}, handler)
    this.http2.on('session', (s: ServerHttp2Session) => {
      this.sessions.add(s)
      s.on('close', () => this.sessions.delete(s))
    })
    this.front = createNetServer((socket) => this.route(socket))
  }

  /** Reads just enough of the connection to tell HTTP/2's preface from HTTP/1. */
  private route(socket: Socket): void {
    this.sockets.add(socket)
    this.unrouted.add(socket)
    socket.on('close', () => {
      this.sockets.delete(socket)
      this.unrouted.delete(socket)
    })
    let seen = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk])
      const n = Math.min(seen.length, PREFACE.length)
      const h2 = seen.subarray(0, n).equals(PREFACE.subarray(0, n))
      if (h2 && n < PREFACE.length) return // could still be the preface: wait for more
      socket.off('data', onData)
      socket.off('error', onError)
      this.unrouted.delete(socket)
      socket.pause()
      socket.unshift(seen)
      // Each server takes the paused socket with the bytes read so far back in its buffer
      // (http2 reads that buffer into its session; http reads it through 'data').
      if (h2) this.http2.emit('connection', socket)
      else {
        this.http1.emit('connection', socket)
        socket.resume()
      }
    }
    const onError = () => socket.destroy()
    socket.on('data', onData)
    socket.on('error', onError)
  }

  listen(host: string, port: number): Promise<{ host: string; port: number }> {
    return new Promise((resolve, reject) => {
      const onError = (e: Error) => reject(e)
      this.front.once('error', onError)
      this.front.listen(port, host, () => {
        this.front.off('error', onError)
        resolve({ host, port: (this.front.address() as AddressInfo).port })
      })
    })
  }

  /** Stops accepting; requests in flight finish (at most `graceMs`), then every connection closes. */
  close(graceMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.http1.closeAllConnections()
        for (const s of this.sessions) s.destroy()
        for (const s of this.sockets) s.destroy()
      }, graceMs)
      timer.unref()
      // The front server counts every connection: it closes when the last one has.
      this.front.close(() => {
        clearTimeout(timer)
        resolve()
      })
      this.http1.close()
      this.http2.close()
      this.http1.closeIdleConnections()
      for (const s of this.sessions) s.close()
      for (const s of this.unrouted) s.destroy()
    })
  }
}
