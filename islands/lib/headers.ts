/**
 * The spec's request conventions (section 7), sent on every call the islands make (lib/api)
 * and with every error report (lib/report): which app asks (X-App-Name: 'widget' under
 * /widgets/, else 'web'), in which language, on what viewport and pixel ratio, and the
 * native-app marker when a native wrapper hosts the page. The spec does not name the marker;
 * Canvass calls it X-Native-App (modules/clientreports/appclient reads it). A null value is
 * a header not sent.
 */
export function appHeaders(): Record<string, string | null> {
  const w = window as Window & { ReactNativeWebView?: unknown; webkit?: { messageHandlers?: { native?: unknown } } }
  return {
    'X-App-Name': location.pathname.startsWith('/widgets/') ? 'widget' : 'web',
    'X-App-Lang': document.documentElement.lang || null,
    'X-Viewport-Width': String(window.innerWidth),
    'X-Viewport-Height': String(window.innerHeight),
    'X-DPR': String(window.devicePixelRatio || 1),
    // The bridges a native wrapper injects: React Native's WebView, or a WKWebView handler.
    'X-Native-App': w.ReactNativeWebView ? 'react-native' : w.webkit?.messageHandlers?.native ? 'ios' : null,
  }
}
