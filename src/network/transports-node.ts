/**
 * Connect-ES transports for Node (the command line, tests): gRPC over HTTP/2 (cleartext
 * HTTP/2 with prior knowledge for http:// URLs, TLS for https://), and gRPC-web and the
 * Connect protocol (binary) over HTTP/1.1.
 */
import type { Transport } from '@connectrpc/connect'
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node'
import type { RpcTransportKind } from './remote'

export function nodeTransportFor(kind: RpcTransportKind, baseUrl: string): Transport {
  switch (kind) {
    case 'grpc':
      return createGrpcTransport({ baseUrl })
    case 'grpc-web':
      return createGrpcWebTransport({ baseUrl, httpVersion: '1.1' })
    case 'connect':
      return createConnectTransport({ baseUrl, httpVersion: '1.1' })
  }
}
