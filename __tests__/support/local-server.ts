/** A raw local HTTP server for the tests of one describe block (or file). */
import { afterAll, beforeAll } from '@jest/globals'
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Started before the tests and closed after them; `url()` is its base URL. */
export function localServer(handler: RequestListener): { url: () => string } {
  let server: Server
  let url = ''
  beforeAll(async () => {
    server = createServer(handler)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return { url: () => url }
}
