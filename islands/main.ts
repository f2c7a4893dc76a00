/**
 * Base bundle, loaded on every page with JavaScript: island loader + toaster. htmx is its own
 * entry (./htmx.ts), loaded only by pages that swap fragments. No React here: islands are lazy
 * chunks. Budget: 20 KB gzip with htmx, for pages without islands.
 */
import './lib/toast.css'
import { startLoader } from './loader'
import { startToaster } from './lib/toast'
import { trapErrors } from './lib/report-trap'
import './registry'

trapErrors() // first, so an island that fails while mounting is reported
startToaster()
startLoader()
