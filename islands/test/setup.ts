// Vitest setup. happy-dom has no XPathEvaluator, which htmx 2 uses (only) to find hx-on:*
// attributes; provide just that query so the real htmx runs in tests.
if (typeof (globalThis as { XPathEvaluator?: unknown }).XPathEvaluator === 'undefined') {
  const HX_ON = /^(data-)?hx-on[:-]/
  class XPathEvaluatorStub {
    createExpression() {
      return {
        evaluate(root: Node) {
          const found =
            root instanceof Element || root instanceof Document || root instanceof DocumentFragment
              ? Array.from(root.querySelectorAll('*')).filter((el) => Array.from(el.attributes).some((a) => HX_ON.test(a.name)))
              : []
          return { iterateNext: () => found.shift() ?? null }
        },
      }
    }
  }
  Object.assign(globalThis, { XPathEvaluator: XPathEvaluatorStub })
}
