/**
 * The local node's judge worker thread (./judge.ts): decodes and judges large publishes
 * off the request thread, with the crypto backend loaded once in this thread.
 */
import { parentPort } from 'node:worker_threads'
import { judgeHandler, type FromJudgeWorker, type ToJudgeWorker } from './judge'

if (!parentPort) throw new Error('src/devnode/judge-worker.ts runs only as a worker thread')
const port = parentPort
const handle = judgeHandler((m: FromJudgeWorker) => port.postMessage(m))
port.on('message', (m: ToJudgeWorker) => void handle(m))
