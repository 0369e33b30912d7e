/**
 * Loads the decoder's protobuf half (./update.ts, which provides itself to ./record.ts)
 * beside the modules that use it. The replay worker's build replaces this module with an
 * empty one (vite.config.ts `lazyRecordReader`) and loads ./update.ts when a log needs it.
 */
import './update'
