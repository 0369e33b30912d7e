/**
 * Connect-ES transports for Node (the command line, tests): gRPC over HTTP/2 (cleartext
 * HTTP/2 with prior knowledge for http:// URLs, TLS for https://), and gRPC-web and the
 * Connect protocol (binary) over HTTP/1.1.
 *
 * `live` (watch's long-lived stream): the HTTP/2 session is PINGed every 5 s while a stream
 * is open and closed, with its streams, when a PING goes unanswered for 5 s, so a stream
 * to a node that vanished without closing its connection fails instead of hanging.
 */
import type { Transport } from '@connectrpc/connect'
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node'
import type { RpcTransportKind } from './remote'

export function nodeTransportFor(kind: RpcTransportKind, baseUrl: string, options: { live?: boolean } = {}): Transport {
  switch (kind) {
    case 'grpc':
      return createGrpcTransport(
        options.live ? { baseUrl, pingIntervalMs: 5000, pingTimeoutMs: 5000, pingIdleConnection: false } : { baseUrl },
      )
    case 'grpc-web':
      return createGrpcWebTransport({ baseUrl, httpVersion: '1.1' })
    case 'connect':
      return createConnectTransport({ baseUrl, httpVersion: '1.1' })
  }
}
