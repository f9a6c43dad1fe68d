import type Form from '#models/form'
import { formUrl } from '#services/forms/hosted_form_service'

/** The message the hosted page posts to its parent whenever its height changes. */
export const HEIGHT_MESSAGE = 'leadgate:form-height'

/** A string as a JavaScript literal that cannot close the <script> it sits in. */
const literal = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c')

/**
 * The copy-paste snippet: an iframe that passes the embedding page and its
 * utm_* parameters to the form (provenance), and grows with the form through
 * postMessage, trusting only messages from the form's own frame and origin.
 * Without script the <noscript> frame still works, at a fixed height.
 */
export function embedSnippet(form: Form) {
  const url = formUrl(form.slug)
  const origin = new URL(url).origin
  const boxId = `leadgate-form-${form.slug}`
  const title = form.title.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
  return `<div id="${boxId}"></div>
<script>
(function () {
  var box = document.getElementById(${literal(boxId)});
  var here = new URLSearchParams(location.search);
  var params = new URLSearchParams({ page: location.href });
  ['utm_source', 'utm_campaign'].forEach(function (name) {
    if (here.get(name)) params.set(name, here.get(name));
  });
  var frame = document.createElement('iframe');
  frame.src = ${literal(url)} + '?' + params.toString();
  frame.title = ${literal(form.title)};
  frame.style.cssText = 'width:100%;border:0;min-height:420px';
  box.appendChild(frame);
  window.addEventListener('message', function (event) {
    if (event.origin !== ${literal(origin)} || event.source !== frame.contentWindow) return;
    if (event.data && event.data.type === ${literal(HEIGHT_MESSAGE)}) frame.style.height = event.data.height + 'px';
  });
})();
</script>
<noscript><iframe src="${url}" title="${title}" style="width:100%;border:0;height:720px"></iframe></noscript>`
}

/**
 * The hosted page's Content-Security-Policy: its own inline style and
 * script by nonce only, the label's logo, submissions to itself (and the
 * redirect to the thank-you page), and framing by the allowed origins
 * alone (`frame-ancestors`; X-Frame-Options cannot list origins).
 */
export function pagePolicy(form: Form | null, nonce: string) {
  const thankYou = form?.thankYouUrl ? new URL(form.thankYouUrl).origin : null
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    'img-src https: data:',
    "connect-src 'self'",
    `form-action 'self'${thankYou ? ` ${thankYou}` : ''}`,
    "base-uri 'none'",
    `frame-ancestors 'self'${(form?.embedOrigins ?? []).map((origin) => ` ${origin}`).join('')}`,
  ].join('; ')
}
