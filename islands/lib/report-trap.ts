/**
 * The error reporter's trap, in the base bundle. It listens from the first moment (an island
 * that fails while mounting is reported) but loads the reporter itself (lib/report: filters,
 * clipping, the request) only when something happens: a page without errors ships these few
 * hundred bytes, not the reporter. Nothing is trapped in development builds.
 */
export type Trapped =
  | { kind: 'error'; event: ErrorEvent }
  | { kind: 'rejection'; reason: unknown }
  | { kind: 'console'; args: unknown[] }

/** What waits while the reporter loads; more is dropped (the reporter sends at most 10 a page). */
const MAX_QUEUED = 10

export function trapErrors(
  dev: boolean = import.meta.env.DEV,
  load: () => Promise<{ handler: () => (t: Trapped) => void }> = () => import('./report'),
): void {
  if (dev) return
  const queue: Trapped[] = []
  let handle: ((t: Trapped) => void) | null = null
  let loading = false
  const push = (t: Trapped) => {
    if (handle) return handle(t)
    if (queue.length < MAX_QUEUED) queue.push(t)
    if (loading) return
    loading = true
    load().then(
      (m) => {
        handle = m.handler()
        queue.splice(0).forEach(handle)
      },
      () => {}, // no reporter (offline, a deploy): the page goes on
    )
  }
  addEventListener('error', (event) => push({ kind: 'error', event }))
  addEventListener('unhandledrejection', (e) => push({ kind: 'rejection', reason: e.reason }))
  const original = console.error
  console.error = (...args: unknown[]) => {
    original.apply(console, args)
    push({ kind: 'console', args })
  }
}
